"""Django's EMAIL_* settings from one EMAIL_URL (dj-email-url)."""

from urllib.parse import urlsplit

import dj_email_url
from django.core.exceptions import ImproperlyConfigured


def mail_folder(file_url: str) -> str:
    """The folder a file:// EMAIL_URL names, always absolute: dj-email-url reads file:///tmp/mail
    as the relative tmp/mail (it wants four slashes), but both spellings mean /tmp/mail."""
    parts = urlsplit(file_url)
    if parts.netloc not in {"", "localhost"}:
        raise ImproperlyConfigured(
            f"EMAIL_URL names a folder by its path, e.g. file:///tmp/mail, not {file_url!r}"
        )
    return "/" + parts.path.lstrip("/")


def email_settings(url: str) -> dict[str, object]:
    """Django's EMAIL_* settings from one URL (dj-email-url): console://, smtp://host:25,
    submission://user:password@host (STARTTLS on 587), smtp://host:465?ssl=1, dummy://."""
    conf: dict[str, object] = dj_email_url.parse(url)
    if "EMAIL_BACKEND" not in conf:
        raise ImproperlyConfigured(f"EMAIL_URL has an unknown scheme: {url.split(':', 1)[0]!r}")
    if url.startswith("file:"):
        conf["EMAIL_FILE_PATH"] = mail_folder(url)
    # Parts the URL leaves out keep Django's defaults (no user, port 25 ...).
    return {key: value for key, value in conf.items() if value not in (None, "")}
