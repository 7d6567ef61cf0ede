#!/usr/bin/env bash
# A backup of the running site: its PostgreSQL database dumped with PostgreSQL's own pg_dump
# (docs/operations.md, "Backups and records"). pg_dump reads one consistent snapshot of the
# database in a single transaction, so play goes on while it runs and every game in the dump is
# as it stood at one instant (a move is in it with its actions, snapshot and clocks, or not at all).
#
#   DATABASE_URL=postgres://bakehouse@db/bakehouse deploy/backup.sh [FILE]     (or: make backup)
#
# FILE defaults to $BACKUP_DIR/bakehouse-<UTC time>.dump (BACKUP_DIR: ./backups). The dump is in
# pg_dump's custom format (compressed; pg_restore reads it) and readable by its owner alone (it
# holds password hashes and addresses). It is written beside FILE first and renamed once whole,
# so a dump that failed never looks like a backup. deploy/restore_drill.sh checks a dump.
set -euo pipefail

: "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database of the site}"
case "$DATABASE_URL" in
  postgres://* | postgresql://*) ;;
  *) echo "backup.sh: DATABASE_URL is not PostgreSQL; SQLite is backed up with sqlite3's .backup (docs/operations.md)." >&2
     exit 2 ;;
esac

file="${1:-${BACKUP_DIR:-backups}/bakehouse-$(date -u +%Y%m%dT%H%M%SZ).dump}"
mkdir -p "$(dirname "$file")"
umask 077
trap 'rm -f "$file.partial"' EXIT
began=$EPOCHREALTIME
pg_dump --format=custom --dbname="$DATABASE_URL" --file="$file.partial"
mv "$file.partial" "$file"
seconds=$(awk -v a="$began" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
echo "Backed up to $file ($(du -h "$file" | cut -f1)) in $seconds s."
