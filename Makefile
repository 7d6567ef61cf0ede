VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed
# A websocket's handshake waits for the table's access check; under load that can take more
# than Daphne's default 5 s, which resets the handshake (bench/web/site.py starts Daphne alike).
DAPHNE_FLAGS ?= --websocket_connect_timeout 30

.PHONY: install run dev serve roll stop test check bench bench-web bench-smoke soak lighthouse \
	backup restore-drill format clean messages

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# `make run` hosts an evening on this machine as a small production site: DEBUG off (the site's own
# error pages), a secret key made once and kept in $(LOCAL_SECRET) (ignored by git), cookies over
# plain HTTP on localhost, compressed static files. `make dev` (or DEBUG=1 make run) develops.
LOCAL_SECRET := .secret_key
RUN_ENV = SECRET_KEY="$${SECRET_KEY:-$$(cat $(LOCAL_SECRET))}" SECURE_COOKIES="$${SECURE_COOKIES:-0}" \
	SITE_URL="$${SITE_URL:-http://127.0.0.1:$(PORT)}"

$(LOCAL_SECRET):
	umask 077 && python3 -c "import secrets; print(secrets.token_urlsafe(50))" > $@

run: DEMO ?= 1
run: install $(LOCAL_SECRET)
	$(RUN_ENV) $(PY) manage.py migrate --noinput
	@if [ "$(DEMO)" = "1" ]; then $(RUN_ENV) $(PY) manage.py demo --if-empty; fi
	$(RUN_ENV) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(RUN_ENV) $(VENV)/bin/daphne $(DAPHNE_FLAGS) -b 127.0.0.1 -p $(PORT) bakery_site.asgi:application

dev: export DEBUG = 1
dev: run

# Production's processes on this machine (docs/operations.md, "A rolling deploy"): `make serve`
# starts one Daphne process a port of PORTS in the background (pids and logs in var/run/), with
# this shell's environment (DATABASE_URL, REDIS_URL, SECRET_KEY...); `make roll`, once the new code
# is in place, migrated and its static files collected, replaces each in turn without a player
# noticing (a new process on the port, then the old one drains); `make stop` drains them all.
PORTS ?= 8001,8002
serve roll stop: install
	$(PY) -m bakery_site.processes $@ --ports $(PORTS)

# PYTEST_ARGS narrows a run (.ci/run's second pass runs only the tests marked backend); the 25
# slowest tests are printed at the end, to keep CI's time in view.
test: install
	$(PY) -m pytest -n 2 --dist loadgroup --durations=25 $(PYTEST_ARGS)

# The catalogues checked too: no untranslated, fuzzy or obsolete entry in a language, each .mo its
# .po compiled, no unmarked words in a template off locale/not-yet-marked.txt.
check: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .
	$(PY) -m bakery_site.catalogues check

# The translators' catalogues (bakery_site/catalogues.py, Babel: no gettext tools needed): the
# marked strings extracted into locale/<language>/LC_MESSAGES/django.po, each compiled to its .mo.
messages: install
	$(PY) -m bakery_site.catalogues messages

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PY) -m bench

# Browsers' load on two Daphne processes (PostgreSQL, Redis) and on make run's defaults; see Speed.
bench-web: install
	$(PY) -m bench.web

# One Daphne process (PostgreSQL, Redis) for an hour of people's evenings: quick games against
# bots, notifications, friends, tutorials, turn-based tables. Its memory, sampled, should level
# off (issues 29, 41); BENCH_SOAK_MINUTES, BENCH_SOAK_PEOPLE (bench/soak/__main__.py).
soak: install
	$(PY) -m bench.soak

# Lighthouse's mobile audits of eleven pages (and the lobby, a live table and a tournament in French
# and German) on a site as `make run` starts it (bench/lighthouse.py):
# fails below 100 in accessibility, best practices or SEO, or at a live table's layout shift of 0.1.
# Not part of `make test` (about seven minutes). Needs Node with npm, and Chromium at CHROME_PATH
# (/usr/bin/chromium); the pinned Lighthouse installs into tools/lighthouse/node_modules (ignored).
LIGHTHOUSE_STAMP := tools/lighthouse/node_modules/.installed
$(LIGHTHOUSE_STAMP): tools/lighthouse/package.json tools/lighthouse/package-lock.json
	cd tools/lighthouse && npm ci --no-audit --no-fund
	touch $@

lighthouse: install $(LIGHTHOUSE_STAMP)
	$(PY) -m bench.lighthouse

# A short pass of every benchmark at tiny sizes (tests/bench/test_smoke.py; make test runs it too).
bench-smoke: install
	$(PY) -m pytest tests/bench/test_smoke.py

# A backup of the site's PostgreSQL database (DATABASE_URL) with pg_dump, safe while the site
# runs: deploy/backup.sh writes backups/bakehouse-<UTC time>.dump (DUMP=file names it instead).
# See docs/operations.md, "Backups and records".
backup:
	deploy/backup.sh $(DUMP)

# The restore drill: the newest backup (or DUMP=file) restored into a new database on the same
# server, migrate --check, verify_games, the site started on it, the database dropped
# (deploy/restore_drill.sh; DRILL_KEEP=1, DRILL_SERVE=1, DRILL_PORT=... as it says).
restore-drill: install
	PYTHON=$(PY) deploy/restore_drill.sh $(DUMP)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache tools/lighthouse/node_modules
