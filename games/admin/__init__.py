"""Moderation in Django admin: tables (games, seats, actions, chat, reports) and people
(accounts, ratings). Friendships and blocks have their own (games/friends/admin.py), as
notifications do (games/notifications/admin.py). Rows are read only; a moderator's buttons call
the services, and a few rows a moderator may delete."""

from games.admin import people, tables

__all__ = ["people", "tables"]
