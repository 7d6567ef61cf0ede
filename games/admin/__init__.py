"""Moderation in Django admin: tables (games, seats, actions, chat, reports), a person's page
(accounts' own user and rating admin, accounts/admin.py, with what they did at the tables added
here) and how people stand to each other (friendships, blocks; notifications have their own,
games/notifications/admin.py). Rows are read only; a moderator's buttons call the services, and
a few rows a moderator may delete."""

from games.admin import people, social, tables

__all__ = ["people", "social", "tables"]
