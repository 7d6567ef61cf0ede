"""Moderation in Django admin: tables (games, seats, actions, chat, reports) and people
(accounts, ratings). Rows are read only; a moderator's buttons call the services."""

from games.admin import people, tables

__all__ = ["people", "tables"]
