-- Events numbered by rounds (issue 16: the outbox may cost at most 10 % of create-customer throughput).
-- docs/decisions.md, "Events", "Numbered by rounds", gives the design and the measurements.
--
-- Until now the sequencer UPDATEd every event to write its number: a second version of each row, with new
-- index entries, and the dead first version for vacuum. From here, one sequencer round writes ONE row per
-- environment: the range of events it numbered, in (txid, id) order, and the numbers they take. An event's
-- number is the round's last number minus the events of its round after it; events are never updated.
--
-- An EXPAND step: the previous release keeps reading and writing `events.sequence`, so this release still
-- writes it too (the same numbers; src/db/event.store.ts). The next release stops writing it, and its
-- CONTRACT migration drops the indexes only the previous releases read by.

CREATE TABLE "event_rounds" (
    "environment" VARCHAR(64) NOT NULL,
    "first_sequence" BIGINT NOT NULL,
    "last_sequence" BIGINT NOT NULL,
    -- The first and last event of the round, in the (txid, id) order it numbers by.
    "first_txid" BIGINT NOT NULL,
    "first_id" UUID NOT NULL,
    "last_txid" BIGINT NOT NULL,
    "last_id" UUID NOT NULL,

    CONSTRAINT "event_rounds_pkey" PRIMARY KEY ("environment", "last_sequence")
);
-- An event's round, found from its (txid, id).
CREATE INDEX "event_rounds_environment_last_txid_last_id_idx" ON "event_rounds"("environment", "last_txid", "last_id");

-- The walk every read of events takes: an environment's events in numbering order.
CREATE INDEX "events_environment_txid_id_idx" ON "events"("environment", "txid", "id");

-- The events the previous releases numbered, as rounds: each run of consecutive numbers of an environment
-- (pruning leaves runs), cut into rounds of at most 1,000 events (the sequencer's batch, so that finding one
-- event's number never counts more than that). Their (txid, id) order is their numbering order: the
-- previous sequencer numbered by it too.
INSERT INTO "event_rounds" ("environment", "first_sequence", "last_sequence", "first_txid", "first_id", "last_txid", "last_id")
SELECT "environment", min("sequence"), max("sequence"),
       (array_agg("txid" ORDER BY "sequence"))[1], (array_agg("id" ORDER BY "sequence"))[1],
       (array_agg("txid" ORDER BY "sequence" DESC))[1], (array_agg("id" ORDER BY "sequence" DESC))[1]
FROM (
    SELECT r.*, (row_number() OVER (PARTITION BY r."environment", r."run" ORDER BY r."sequence") - 1) / 1000 AS "chunk"
    FROM (
        SELECT e."environment", e."sequence", e."txid", e."id",
               e."sequence" - row_number() OVER (PARTITION BY e."environment" ORDER BY e."sequence") AS "run"
        FROM "events" e WHERE e."sequence" IS NOT NULL
    ) r
) c
GROUP BY "environment", "run", "chunk";

-- An environment whose numbered events were all pruned keeps its numbering: an empty round (no event
-- between its bounds) at its last number, so that the next round continues from it.
INSERT INTO "event_rounds" ("environment", "first_sequence", "last_sequence", "first_txid", "first_id", "last_txid", "last_id")
SELECT s."environment", s."last" + 1, s."last", 0, '00000000-0000-0000-0000-000000000000', 0, '00000000-0000-0000-0000-000000000000'
FROM "event_sequences" s
WHERE NOT EXISTS (SELECT 1 FROM "event_rounds" r WHERE r."environment" = s."environment")
  AND s."last" > 0;
