"""Vacations: a person takes a few days away and their turn-based clocks stand still."""
