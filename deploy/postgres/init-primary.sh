#!/bin/sh
# First start of compose.yaml's primary (the postgres image runs /docker-entrypoint-initdb.d/* once, on an
# empty data directory): the service's roles and database, from the passwords compose passes in.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v owner_password="$CAS_OWNER_PASSWORD" \
  -v app_password="$CAS_APP_PASSWORD" \
  -v replication_password="$CAS_REPLICATION_PASSWORD" \
  -f /etc/postgresql/roles.sql
