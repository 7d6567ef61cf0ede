"""Moderation in Django admin: tables (games, seats, actions, chat, reports) and a person's page
(accounts' own user and rating admin, accounts/admin.py, with what they did at the tables added
here). Friendships and blocks have their own (games/friends/admin.py), as notifications do
(games/notifications/admin.py). Rows are read only; a moderator's buttons call the services, and
a few rows a moderator may delete."""

from games.admin import people, tables

__all__ = ["people", "tables"]
