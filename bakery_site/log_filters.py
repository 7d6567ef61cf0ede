"""Log records the site shapes: a refused request is one line, not a traceback."""

from __future__ import annotations

import logging


class RefusalsInOneLine(logging.Filter):
    """A request answered 4xx (a refusal in words: 403, 404, 400) is logged as one line.

    Django logs a PermissionDenied with its traceback at WARNING; a refusal is the site working
    as meant, so only its status, method and path are kept. A 503 is the site's answer while its
    database is away, which it logs once for the whole outage; it is not logged per request.
    Other 5xx records keep their traceback.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status == 503:  # the database away: the site told it once, in its own line
            return False
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
