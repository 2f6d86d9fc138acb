#!/usr/bin/env bash
# Runs a command with TEST_DATABASE_URL pointing at a throw-away PostgreSQL 15 server built from
# Debian's packaged binaries, to prove the service does not depend on the embedded server's version.
#
# A private cluster in a temp directory, on a free port, rather than the machine's "15 main" cluster:
# nothing shared is started, stopped or re-passworded, so several CI runs can use this at once and
# none leaves a server behind. Works as root (the server then runs as the postgres user) and as an
# ordinary user.
#
#   scripts/ci/with-debian-postgres.sh npm test
set -euo pipefail

PG_VERSION=${PG_VERSION:-15}
PG_BIN=/usr/lib/postgresql/$PG_VERSION/bin
if [ ! -x "$PG_BIN/initdb" ]; then
  echo "Debian's PostgreSQL $PG_VERSION is not installed ($PG_BIN/initdb missing): apt-get install postgresql-$PG_VERSION" >&2
  exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cas-pg$PG_VERSION-XXXXXX")
as_server_user() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
cleanup() {
  if [ -f "$WORK/data/postmaster.pid" ]; then
    as_server_user "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
[ "$(id -u)" -eq 0 ] && chown postgres: "$WORK"

PASSWORD="ci_$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
PORT=$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })")
as_server_user sh -c "umask 077 && printf '%s\n' '$PASSWORD' > '$WORK/password'"

as_server_user "$PG_BIN/initdb" -D "$WORK/data" -U postgres --pwfile="$WORK/password" --auth=scram-sha-256 \
  --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$WORK/initdb.log" 2>&1 || { cat "$WORK/initdb.log" >&2; exit 1; }
# Throw-away test data: durability settings off, enough connections for parallel test workers.
as_server_user "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w -t 60 \
  -o "-p $PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$WORK -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null || { cat "$WORK/server.log" >&2; exit 1; }

URL="postgresql://postgres:$PASSWORD@127.0.0.1:$PORT/postgres"
echo "PostgreSQL $("$PG_BIN/psql" -qAt "$URL" -c 'show server_version') (Debian binaries) on 127.0.0.1:$PORT"
TEST_DATABASE_URL="$URL" "$@"
