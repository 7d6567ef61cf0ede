"""Tournaments: Swiss events for tables of several people, and arenas; anyone may make one."""
