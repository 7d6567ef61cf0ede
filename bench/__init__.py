"""Benchmarks run by `make bench`: medians of several runs, printed, never asserted."""
