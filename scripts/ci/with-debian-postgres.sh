#!/usr/bin/env bash
# Runs a command with TEST_DATABASE_URL pointing at Debian's PostgreSQL 15 cluster (started here,
# stopped afterwards), to prove the service does not depend on the embedded server's version.
set -euo pipefail
PASSWORD="ci_$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
pg_ctlcluster --skip-systemctl-redirect 15 main start
trap 'pg_ctlcluster --skip-systemctl-redirect 15 main stop || true' EXIT
for _ in $(seq 1 30); do
  if su postgres -c "psql -qAt -c 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 0.5
done
su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD '$PASSWORD'\""
VERSION=$(su postgres -c "psql -qAt -c 'show server_version'")
echo "Debian PostgreSQL $VERSION on 127.0.0.1:5432"
TEST_DATABASE_URL="postgresql://postgres:$PASSWORD@127.0.0.1:5432/postgres" "$@"
