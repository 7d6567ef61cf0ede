"""Quick pairing: people press "Find a game" and the site seats them together at a new table."""
