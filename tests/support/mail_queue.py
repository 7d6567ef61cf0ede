"""The mails the task queue sent: the tests work the queue as each Daphne process's mail thread
does (games/live/task_worker.py), then read Django's test outbox.

The worker checks its connection between tasks as Django does between requests, which closes a
connection left inside a transaction: tests that work the queue run with
`pytest.mark.django_db(transaction=True)`.
"""

from __future__ import annotations

from django.core import mail

from games.live import task_worker


def sent() -> list[mail.EmailMessage]:
    """Every mail sent so far, once the worker has run the tasks queued."""
    task_worker.run_due()
    return list(mail.outbox)
