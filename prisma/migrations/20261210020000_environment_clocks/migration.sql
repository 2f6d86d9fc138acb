-- Each environment's clock and its end of day (docs/adr/0102-environment-clocks-and-end-of-day.md).
--
-- An environment's time is the real time plus its offset: time keeps flowing, and a sandbox moved forward
-- (POST /{environment}/clock/advance) stays ahead by what it was moved. No row: offset 0, the real time.
-- The offset only grows (the CHECK below and the advance's conditional update), so an environment's time
-- never moves back.
CREATE TABLE "environment_clocks" (
    "environment" VARCHAR(64) NOT NULL,
    "offset_ms" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "environment_clocks_pkey" PRIMARY KEY ("environment"),
    CONSTRAINT "environment_clocks_offset_forward" CHECK ("offset_ms" >= 0)
);

-- The clock port's database half: every statement whose rule turns on time reads the environment's time
-- through these, never now() or CURRENT_TIMESTAMP. STABLE: one value per statement, so a posting stays one
-- statement with one look-up of a one-row primary key.
CREATE FUNCTION "env_offset"(env VARCHAR) RETURNS INTERVAL LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce((SELECT c."offset_ms" FROM "environment_clocks" c WHERE c."environment" = env), 0) * interval '1 millisecond'
$$;
CREATE FUNCTION "env_now"(env VARCHAR) RETURNS TIMESTAMPTZ LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CURRENT_TIMESTAMP + "env_offset"(env)
$$;

-- Postings carry the environment's time: posted_at is still the moment the entries are written, after
-- every lock (docs/adr/0059), moved by the environment's offset; created_at (a hold's start, for pending
-- as of a moment) is the environment's time too. The offset only grows, so posting order and time agree.
CREATE OR REPLACE FUNCTION "ledger_entries_posting_order"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    stamp TEXT;
BEGIN
    IF TG_OP = 'INSERT' THEN
        NEW."was_hold" := NEW."status" = 'PENDING';
        -- Moved by the offset rather than replaced: the default (the statement's time) becomes env_now(), and a
        -- time an import or a test wrote explicitly keeps its meaning on an unmoved clock.
        NEW."created_at" := NEW."created_at" + "env_offset"(NEW."environment");
    END IF;
    IF NEW."status" = 'POSTED' AND (TG_OP = 'INSERT' OR OLD."status" <> 'POSTED') THEN
        stamp := current_setting('cas.ledger_posted_at', true);
        IF stamp IS NULL OR stamp = '' THEN
            stamp := (clock_timestamp() + "env_offset"(NEW."environment"))::text;
            PERFORM set_config('cas.ledger_posted_at', stamp, true);
        END IF;
        NEW."posted_at" := stamp::timestamptz;
        NEW."posting_seq" := nextval('"ledger_entries_posting_seq"');
    END IF;
    RETURN NEW;
END;
$$;

-- The audit trail keeps both times: occurred_at, the real time (its default), and the environment's.
-- Expand-only: rows written before this migration, or by the previous release, get it from the trigger;
-- older rows keep NULL (their environment's time was the real time).
ALTER TABLE "audit_events" ADD COLUMN "environment_occurred_at" TIMESTAMPTZ(3);
CREATE FUNCTION "audit_events_environment_time"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW."environment_occurred_at" := "env_now"(NEW."environment");
    RETURN NEW;
END;
$$;
CREATE TRIGGER "audit_events_environment_time"
    BEFORE INSERT ON "audit_events"
    FOR EACH ROW EXECUTE FUNCTION "audit_events_environment_time"();

-- One end of day per environment and business date: its steps in order, each recorded with its count,
-- timings and failure. The lease (real time) lets one instance run a day at a time; a lease that ran out
-- (its instance died) is taken over, and the day resumes where it stopped.
CREATE TABLE "end_of_day_runs" (
    "environment" VARCHAR(64) NOT NULL,
    "business_date" DATE NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_owner" UUID,
    "lease_expires_at" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "end_of_day_runs_pkey" PRIMARY KEY ("environment", "business_date"),
    CONSTRAINT "end_of_day_runs_status" CHECK ("status" IN ('RUNNING', 'COMPLETED', 'FAILED'))
);

CREATE TABLE "end_of_day_steps" (
    "environment" VARCHAR(64) NOT NULL,
    "business_date" DATE NOT NULL,
    "step" VARCHAR(64) NOT NULL,
    "position" INTEGER NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "records" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "error" VARCHAR(200),

    CONSTRAINT "end_of_day_steps_pkey" PRIMARY KEY ("environment", "business_date", "step"),
    CONSTRAINT "end_of_day_steps_status" CHECK ("status" IN ('RUNNING', 'COMPLETED', 'FAILED')),
    CONSTRAINT "end_of_day_steps_run_fkey" FOREIGN KEY ("environment", "business_date")
        REFERENCES "end_of_day_runs" ("environment", "business_date") ON DELETE CASCADE ON UPDATE RESTRICT
);

-- Each record an end-of-day step changes is changed once per (environment, date, step): the step's change
-- and its audit event are one statement, the event's request id names the day and step
-- ('end-of-day:<date>:<step>', then ':<flag>' for a flag), and this index refuses a second event for the same record. It is also how
-- a step's count is read back exactly after a crash.
CREATE UNIQUE INDEX "audit_events_end_of_day_record_key" ON "audit_events" ("environment", "request_id", "resource_id")
    WHERE "request_id" LIKE 'end-of-day:%';
-- The count of a day's step filters on request_id: its statistics back (migration 20261129000000 dropped them).
ALTER TABLE "audit_events" ALTER COLUMN "request_id" SET STATISTICS -1;
