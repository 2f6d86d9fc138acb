-- A record's recent events filter on resource_type (docs/adr/0073-a-records-recent-events.md, amended 2026-11-27).
-- Without statistics the planner took that filter to keep 0.5 % of the rows, so it expected about one event per
-- record and, for the statement's generic plan, preferred reading all of a record's events and sorting them over
-- reading the index from its newest end and stopping at the limit. With statistics (a handful of values) the
-- filter keeps what it really keeps. resource_id keeps none on purpose: the planner then assumes a record has many
-- events, which is the case the bounded read exists for (a record written often), and costs a few index entries otherwise.
ALTER TABLE "events" ALTER COLUMN "resource_type" SET STATISTICS -1;
