"""The house table: when no person's game may be watched, house bots play one for the lobby."""
