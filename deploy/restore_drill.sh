#!/usr/bin/env bash
# The restore drill (docs/operations.md, "Backups and records"): a backup is known to be good only
# once it was restored and the site ran on it. On the server DATABASE_URL names (the site's own
# database is only connected to, never written), it
#   1. creates a new database (DRILL_DATABASE, default bakehouse_drill_<UTC time>);
#   2. restores the dump into it with pg_restore (DRILL_JOBS at once, default 2), stopping at the
#      first error;
#   3. checks the schema is this code's: manage.py migrate --check (DRILL_MIGRATE=1 migrates it
#      instead, to rehearse an upgrade on the restored data);
#   4. checks every game: manage.py verify_games (each finished game's export replays to its
#      stored result; each running table rebuilds to its stored version, its clocks in order);
#   5. starts the site on it: one Daphne on 127.0.0.1:DRILL_PORT (default 8090) with the in-memory
#      channel layer, mail to the console and no browser pushes, so nothing reaches the live
#      site's people or sockets, and waits for /healthz; with DRILL_SERVE=1 it serves until
#      Ctrl-C (open a table, play a move; static files must have been collected);
#   6. drops the new database, unless DRILL_KEEP=1 (then it prints its URL).
# It stops at the first step that fails, says which, drops the database and exits non-zero.
#
#   DATABASE_URL=postgres://bakehouse@db/bakehouse deploy/restore_drill.sh [DUMP]
#   make restore-drill [DUMP=backups/bakehouse-....dump]
#
# DUMP defaults to the newest $BACKUP_DIR/*.dump (BACKUP_DIR: ./backups). PYTHON is the site's
# Python (default .venv/bin/python). The rest of the site's environment (SECRET_KEY, PACE_SCALE,
# ...) is passed on as it is; without a SECRET_KEY the drill's Daphne makes a throwaway one.
set -euo pipefail
dump="${1:+$(realpath -m -- "$1")}"
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"

say() { echo "restore_drill: $*"; }
fail() { echo "restore_drill: $*" >&2; exit 1; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

: "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database of the site (its server is used)}"
case "$DATABASE_URL" in
  postgres://* | postgresql://*) ;;
  *) fail "DATABASE_URL is not PostgreSQL; the drill restores PostgreSQL dumps." ;;
esac
if [ -z "$dump" ]; then
  dump="$(find "${BACKUP_DIR:-backups}" -maxdepth 1 -name '*.dump' -printf '%T@ %p\n' 2>/dev/null \
    | sort -rn | head -n 1 | cut -d' ' -f2- || true)"
fi
[ -n "$dump" ] && [ -f "$dump" ] || fail "no dump to restore: give a file, or run deploy/backup.sh."

name="${DRILL_DATABASE:-bakehouse_drill_$(date -u +%Y%m%d_%H%M%S)}"
[[ "$name" =~ ^[a-z_][a-z0-9_]*$ ]] || fail "DRILL_DATABASE must be lower-case letters, digits and _."
base="${DATABASE_URL%%\?*}"          # the URL without its ?options
options="${DATABASE_URL:${#base}}"
[ "$name" != "${base##*/}" ] || fail "DRILL_DATABASE is the site's own database."
drill_url="${base%/*}/$name$options"
port="${DRILL_PORT:-8090}"

created=0 serving=0 daphne_pid="" log=""
finish() {
  local code=$?
  if [ -n "$daphne_pid" ]; then  # SIGTERM; SIGKILL if it still runs 10 s later
    kill "$daphne_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$daphne_pid" 2>/dev/null && sleep 0.2 || break; done
    kill -9 "$daphne_pid" 2>/dev/null || true
    wait "$daphne_pid" 2>/dev/null || true
  fi
  if [ "$created" = 1 ] && [ "${DRILL_KEEP:-0}" = 1 ]; then
    say "kept the restored database: DATABASE_URL=$drill_url"
  elif [ "$created" = 1 ]; then
    dropdb --maintenance-db="$DATABASE_URL" --force "$name" && say "dropped $name."
  fi
  [ -z "$log" ] || rm -f "$log"
  exit "$code"
}
trap finish EXIT
trap 'if [ "$serving" = 1 ]; then exit 0; else exit 130; fi' INT TERM

# The drill's own site: its restored database, and nothing that reaches the live site's people.
drill_env=(env -u REDIS_URL -u CACHE_URL -u EMAIL_URL -u VAPID_PRIVATE_KEY -u VAPID_PUBLIC_KEY
  DATABASE_URL="$drill_url")

began=$EPOCHREALTIME
createdb --maintenance-db="$DATABASE_URL" "$name" || fail "step 1: could not create database $name."
created=1
say "1. created database $name."

step=$EPOCHREALTIME
pg_restore --no-owner --exit-on-error --jobs="${DRILL_JOBS:-2}" --dbname="$drill_url" "$dump" \
  || fail "step 2: pg_restore could not restore $dump."
say "2. restored $dump in $(since "$step") s."

step=$EPOCHREALTIME
if [ "${DRILL_MIGRATE:-0}" = 1 ]; then
  "${drill_env[@]}" "$PYTHON" manage.py migrate --noinput || fail "step 3: migrate failed on the restored data."
  say "3. migrated in $(since "$step") s."
elif "${drill_env[@]}" "$PYTHON" manage.py migrate --check; then
  say "3. schema is this code's (migrate --check)."
else
  "${drill_env[@]}" "$PYTHON" manage.py showmigrations --plan | grep -F '[ ]' >&2 || true
  fail "step 3: the dump's schema is not this code's: the migrations above are not applied to it (DRILL_MIGRATE=1 rehearses the upgrade)."
fi

step=$EPOCHREALTIME
"${drill_env[@]}" "$PYTHON" manage.py verify_games || fail "step 4: games fail the check (listed above)."
say "4. every game checked in $(since "$step") s."

step=$EPOCHREALTIME
"$PYTHON" -c 'import socket, sys; socket.create_server(("127.0.0.1", int(sys.argv[1]))).close()' \
  "$port" 2>/dev/null || fail "step 5: port $port is taken (another site?): set DRILL_PORT."
log="$(mktemp -t restore-drill-daphne.XXXXXX)"
secret="${SECRET_KEY:-$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(50))')}"
"${drill_env[@]}" SECRET_KEY="$secret" ALLOWED_HOSTS=127.0.0.1,localhost SITE_URL="http://127.0.0.1:$port" \
  CSRF_TRUSTED_ORIGINS="http://127.0.0.1:$port" SECURE_COOKIES=0 SECURE_SSL_REDIRECT=0 \
  SECURE_HSTS_SECONDS=0 SECURE_PROXY_SSL_HEADER=0 \
  "$PYTHON" -m daphne --websocket_connect_timeout 30 -b 127.0.0.1 -p "$port" \
  bakery_site.asgi:application >"$log" 2>&1 &
daphne_pid=$!
until "$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
  "http://127.0.0.1:$port/healthz" 2>/dev/null; do
  kill -0 "$daphne_pid" 2>/dev/null || { tail -n 30 "$log" >&2; fail "step 5: the site did not start on the restored database."; }
  [ "$(since "$step" | cut -d. -f1)" -lt 60 ] || { tail -n 30 "$log" >&2; fail "step 5: the site did not answer /healthz within 60 s."; }
  sleep 0.2
done
say "5. the site runs on the restored database (/healthz answered in $(since "$step") s)."
if [ "${DRILL_SERVE:-0}" = 1 ]; then
  serving=1
  say "   open http://127.0.0.1:$port (its log: $log); Ctrl-C ends the drill."
  wait "$daphne_pid" || true
  daphne_pid=""
fi

say "passed in $(since "$began") s."
