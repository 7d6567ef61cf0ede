"""The tutorial: a guided first game against one bot, each step pointing at what to press."""
