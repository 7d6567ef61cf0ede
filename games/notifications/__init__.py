"""Notifications: what a person is told outside the table, in the inbox, by mail, by Web Push.

Made: services.py (tell_turn, tell_ended, ...), from the events receivers.py hears.
Sent: sweep.py, which the runner (games/live/runner.py) schedules: mail.py, push.py (where a push
may go: push_policy.py; how it goes: push_delivery.py). Read: views.py (the inbox's pages),
badge.py (the menu's unread count, pushed to open sockets). Also: invitations.py (inviting a
friend to your table makes their notification), models.py, admin.py, templates/notifications/.
"""
