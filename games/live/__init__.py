"""The live path: the table's socket, sessions' sockets, the channel layer, the bot runner."""
