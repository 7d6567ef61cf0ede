"""The settings of the sites bench-web starts: the site's own, with static files collected into
the set-up's temp folder (BENCH_WEB_STATIC_ROOT) instead of the checkout's staticfiles/, which
`make run` and tests running meanwhile read."""

import os
from pathlib import Path

from django.conf import global_settings

from bakery_site.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ["BENCH_WEB_STATIC_ROOT"])

# The browser tests' sites (tests/e2e/conftest.py) sign up every person through the form: the
# site's password hasher (PBKDF2) took 0.35-0.64 s of CPU a password on this machine, once a
# person. What they check is the pages, not the hash's strength; bench-web's own people log in by
# session and hash nothing.
# New passwords hash with MD5; the site's own hashers stay listed after it, so a password made
# by a command under the site's settings (a moderator the tests make) still checks.
if os.environ.get("BENCH_WEB_QUICK_PASSWORDS") == "1":
    PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        *global_settings.PASSWORD_HASHERS,
    ]
