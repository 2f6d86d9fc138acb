#!/bin/sh
# compose.yaml's streaming replica: on an empty data directory, copy the primary with pg_basebackup (-R writes
# primary_conninfo and standby.signal, -S uses the slot roles.sql created), then run PostgreSQL with the same
# settings as the primary. Runs as the postgres user.
set -eu
: "${PGDATA:?}" "${PRIMARY_HOST:?}" "${CAS_REPLICATION_PASSWORD:?}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready --host "$PRIMARY_HOST" --port 5432 --quiet; do
    echo "waiting for the primary at $PRIMARY_HOST:5432"
    sleep 1
  done
  PGPASSWORD="$CAS_REPLICATION_PASSWORD" pg_basebackup --host "$PRIMARY_HOST" --port 5432 --username replicator \
    --pgdata "$PGDATA" --wal-method stream --write-recovery-conf --slot replica_1 --checkpoint fast --progress
  chmod 0700 "$PGDATA"
fi
exec postgres -c config_file=/etc/postgresql/postgresql.conf -c hba_file=/etc/postgresql/pg_hba.conf
