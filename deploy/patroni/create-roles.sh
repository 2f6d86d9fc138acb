#!/bin/sh
# compose.yaml's one-shot postgres-roles: the service's roles and database (deploy/postgres/roles.sql) on a
# new Patroni cluster, through HAProxy's primary port, before the migration runs. Patroni created the
# superuser and the replication role at bootstrap; roles.sql without replication_password leaves those alone.
# Runs on every `docker compose up`: once the service's database exists it does nothing.
set -eu
export PGHOST="${PGHOST:-postgres-haproxy}" PGPORT="${PGPORT:-5433}" PGUSER=postgres PGDATABASE=postgres
export PGPASSWORD="$CAS_POSTGRES_PASSWORD" PGCONNECT_TIMEOUT=3
# The leader may still be bootstrapping (initdb, then its first /primary check passes in HAProxy).
tries=0
until psql -qAtX -c 'SELECT 1' >/dev/null 2>&1; do
  tries=$((tries + 1))
  if [ "$tries" -ge 90 ]; then
    echo "create-roles.sh: no primary on $PGHOST:$PGPORT after 180 s" >&2
    exit 1
  fi
  sleep 2
done
if [ "$(psql -qAtX -c "SELECT count(*) FROM pg_database WHERE datname = 'customer_account'")" = 1 ]; then
  echo "create-roles.sh: customer_account exists, nothing to do"
  exit 0
fi
exec psql -v ON_ERROR_STOP=1 -q \
  -v owner_password="$CAS_OWNER_PASSWORD" \
  -v app_password="$CAS_APP_PASSWORD" \
  -f /etc/postgresql/roles.sql
