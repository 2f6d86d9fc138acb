-- The roles and database of the service (docs/security.md, "Database roles"), for a fresh primary. Run it
-- once as a superuser with psql, passwords as variables (compose.yaml's one-shot postgres-roles runs it through
-- deploy/patroni/create-roles.sh, without replication_password):
--   psql -v ON_ERROR_STOP=1 -v owner_password=… -v app_password=… -v replication_password=… -f roles.sql
\set ON_ERROR_STOP on

-- Owns the database and its schema: `npm run db:migrate` (the migration job) logs in as this role.
CREATE ROLE cas_owner LOGIN PASSWORD :'owner_password';
-- The running service: reads and writes rows, no DDL (MIGRATE_ON_START=false).
CREATE ROLE cas_app LOGIN PASSWORD :'app_password';
-- Streaming replicas (pg_basebackup and WAL streaming). Not under Patroni, which creates its own replication
-- role at bootstrap (compose.yaml's create-roles.sh passes no replication_password).
\if :{?replication_password}
CREATE ROLE replicator LOGIN REPLICATION PASSWORD :'replication_password';
\endif

CREATE DATABASE customer_account OWNER cas_owner ENCODING 'UTF8' TEMPLATE template0;

-- The service's session settings, on the role: a connection pooler in transaction mode drops the ones the
-- service sends at connection start (deploy/pgbouncer/pgbouncer.ini), and /readyz stays 503 until the
-- sessions are in UTC. Keep statement_timeout equal to DATABASE_STATEMENT_TIMEOUT_MS.
ALTER ROLE cas_app SET timezone = 'UTC';
ALTER ROLE cas_app SET statement_timeout = '5s';
ALTER ROLE cas_app SET idle_in_transaction_session_timeout = '10s';
ALTER ROLE cas_owner SET timezone = 'UTC';

\connect customer_account
-- Every table the migrations create (as cas_owner) is readable and writable by the service. The audit
-- trail's triggers still refuse UPDATE, DELETE and TRUNCATE to every role.
GRANT USAGE ON SCHEMA public TO cas_app;
ALTER DEFAULT PRIVILEGES FOR ROLE cas_owner IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO cas_app;
ALTER DEFAULT PRIVILEGES FOR ROLE cas_owner IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO cas_app;

-- The replica's slot: the primary keeps the WAL a disconnected replica still needs (bounded by disk).
-- Patroni keeps its members' slots itself (use_slots).
\if :{?replication_password}
DO $$ BEGIN PERFORM pg_create_physical_replication_slot('replica_1'); END $$;
\endif
