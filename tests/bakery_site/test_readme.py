"""What the README tells a newcomer about trying the site locally holds: the sign-up limit it
names is the site's, and the EMAIL_URL it shows for reading the mail is one the site takes."""

from __future__ import annotations

import re
from pathlib import Path

from bakery_site.mail import email_settings

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_the_readme_names_the_sign_up_limit_an_hour() -> None:
    found = re.search(r"Sign-ups are limited to (\d+) accounts an hour from one address", README)
    assert found, "the README does not say how many sign-ups an hour one address may make"
    assert int(found.group(1)) == 5  # the default of SIGNUPS_PER_CLIENT (accounts/conf.py)
    assert "`SIGNUPS_PER_CLIENT=" in README


def test_the_readme_says_where_the_mail_goes_and_how_to_keep_it_in_files() -> None:
    assert re.search(r"mail .*is printed in the\s+terminal running `make run`", README, re.S)
    found = re.search(r"`EMAIL_URL=(\S+) make run` writes each mail to\s+a file", README)
    assert found, "the README does not say how to keep the site's mail in files"
    conf = email_settings(found.group(1))
    assert conf["EMAIL_BACKEND"] == "django.core.mail.backends.filebased.EmailBackend"
    assert conf["EMAIL_FILE_PATH"] == "/tmp/bakehouse-mail"
