VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: install run test check bench bench-web format clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: export DEBUG ?= 1
run: DEMO ?= 1
run: install
	$(PY) manage.py migrate --noinput
	@if [ "$(DEMO)" = "1" ]; then $(PY) manage.py demo --if-empty; fi
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) bakery_site.asgi:application

test: install
	$(PY) -m pytest -n 2 --dist loadgroup

check: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PY) -m bench

# Browsers' load on two Daphne processes (PostgreSQL, Redis) and on make run's defaults; see Speed.
bench-web: install
	$(PY) -m bench.web

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache
