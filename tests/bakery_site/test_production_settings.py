"""Production settings: DEBUG off unless asked, check --deploy clean, CSP, HTTPS switches, axes."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, RequestFactory
from django.views.defaults import server_error

from accounts.client_ip import client_ip
from accounts.models import User

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-baking-secret"


def readme_production_env() -> dict[str, str]:
    """The variables of the README's production start (its `export DEBUG=0 ...` command)."""
    text = (ROOT / "README.md").read_text()
    match = re.search(r"^export DEBUG=0 .*?(?<!\\)$", text, re.MULTILINE | re.DOTALL)
    assert match, "the README has no production `export DEBUG=0 ...` command"
    words = shlex.split(match.group(0).replace("\\\n", " "))[1:]
    return dict(word.split("=", 1) for word in words)


def run_django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Python code in a fresh process with the given environment (nothing of this one's Django)."""
    names = [n for n in os.environ if not n.startswith(("DJANGO_", "DEBUG", "SECRET_KEY"))]
    clean = {name: os.environ[name] for name in names}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "bakery_site.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_readme_production_variables() -> None:
    env = {**readme_production_env(), "SECRET_KEY": secrets.token_urlsafe(60)}
    assert env["DEBUG"] == "0" and len(env["SECRET_KEY"]) >= 50
    done = run_django(
        "from django.core.management import execute_from_command_line as run; "
        "run(['manage.py', 'check', '--deploy', '--fail-level', 'WARNING'])",
        **env,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    assert "no issues" in done.stdout


def test_debug_is_off_unless_asked_for() -> None:
    show = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    assert run_django(show).stdout.strip() == "False"
    assert run_django(show, DEBUG="1").stdout.strip() == "True"


def test_the_site_refuses_to_start_without_a_secret_key_when_debug_is_off() -> None:
    done = run_django("import bakery_site.asgi")
    assert done.returncode != 0 and "Set SECRET_KEY" in done.stderr
    assert run_django("import bakery_site.asgi", DEBUG="1").returncode == 0


def test_a_serving_process_collects_its_young_objects_in_larger_batches() -> None:
    done = run_django(
        "import gc, bakery_site.asgi; print(gc.get_threshold(), gc.get_freeze_count() > 0)",
        DEBUG="1",
        GC_YOUNG="12345",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[-2] == "(12345, 20, 10) True"  # and what was loaded is frozen
    default = run_django("import gc, bakery_site.asgi; print(gc.get_threshold()[0])", DEBUG="1")
    assert default.stdout.split("\n")[-2] == "20000"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/", "/admin/login/"])
def test_pages_carry_a_policy_without_inline_scripts_or_eval(path: str) -> None:
    response = Client().get(path)
    assert response.status_code == 200
    policy = dict(
        (d.split()[0], d.split()[1:]) for d in response["Content-Security-Policy"].split(";")
    )
    assert policy["script-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_pages_have_no_inline_script_or_style() -> None:
    html = Client().get("/accounts/login/").content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert "<style" not in html and " style=" not in html and " on" + "click=" not in html
    assert '"includeIndicatorStyles": false' in html


@pytest.mark.django_db
def test_https_switches_redirect_and_send_hsts_but_spare_the_health_probe(
    settings: object,
) -> None:
    settings.SECURE_SSL_REDIRECT = True  # type: ignore[attr-defined]
    settings.SECURE_HSTS_SECONDS = 3600  # type: ignore[attr-defined]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")  # type: ignore[attr-defined]
    plain = Client().get("/accounts/login/")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    assert Client().get("/healthz").status_code == 200
    proxied = Client().get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
    assert proxied.status_code == 200
    assert proxied["Strict-Transport-Security"] == "max-age=3600"


def test_the_client_is_the_address_the_proxy_saw(settings: object) -> None:
    settings.PROXY_COUNT = 1  # type: ignore[attr-defined]
    factory = RequestFactory()
    proxied = factory.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.9")
    forged = factory.get(
        "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.9"
    )
    assert client_ip(proxied) == client_ip(forged) == "203.0.113.9"
    settings.PROXY_COUNT = 0  # type: ignore[attr-defined]
    assert client_ip(forged) == "10.0.0.2"


def log_in(client: Client, password: str, via: str) -> int:
    """Post the log-in form for alice through the proxy, from the given address; the status."""
    response = client.post(
        "/accounts/login/",
        {"username": "alice", "password": password},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR=via,
    )
    return response.status_code


@pytest.mark.django_db
def test_behind_the_proxy_one_clients_failures_do_not_lock_out_another(
    player: User, settings: object
) -> None:
    settings.PROXY_COUNT = 1  # type: ignore[attr-defined]
    attacker = Client()
    for n in range(5):
        log_in(attacker, "wrong", f"198.51.100.{n}, 203.0.113.66")
    assert log_in(attacker, PASSWORD, "203.0.113.66") in {403, 429}
    owner = Client()
    assert log_in(owner, PASSWORD, "203.0.113.9") == 302
    assert "_auth_user_id" in owner.session


def make_run_env() -> dict[str, str]:
    """The variables `make run` gives its commands (its RUN_ENV line, with a key as made once)."""
    line = next(
        line for line in (ROOT / "Makefile").read_text().splitlines() if line.startswith("RUN_ENV")
    )
    assert "DEBUG" not in line  # make run serves as production does; `make dev` turns DEBUG on
    return {"SECRET_KEY": secrets.token_urlsafe(50), "SECURE_COOKIES": "0"}


def test_make_run_serves_with_debug_off_cookies_over_plain_http_and_compressed_files() -> None:
    show = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.STORAGES['staticfiles']['BACKEND'].rsplit('.', 1)[1])"
    )
    done = run_django(show, **make_run_env())
    assert done.returncode == 0, done.stderr
    compressed = "CompressedManifestStaticFilesStorage"  # WhiteNoise's
    assert done.stdout.split() == ["False", "False", "False", compressed]


@pytest.mark.django_db
def test_a_missing_page_is_the_sites_own_not_found_page() -> None:
    response = Client().get("/games/987654/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Nothing here" in page and "Back to the lobby" in page and "URLconf" not in page


def test_a_server_error_is_the_sites_own_page_even_with_nothing_to_render_it_with() -> None:
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()
