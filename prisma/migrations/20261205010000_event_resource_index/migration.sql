-- A record's recent events (`Customer.recentEvents`, `Account.recentEvents`, `GET /{environment}/customer/{customerId}/event`,
-- `GET /{environment}/account/{accountId}/event`; docs/adr/0073-a-records-recent-events.md): newest first, an index range
-- of one resource read from its newest end, instead of a walk of the environment's whole outbox. One more index on
-- the outbox: every write that appends an event pays one more index entry.
CREATE INDEX "events_environment_resource_id_txid_id_idx" ON "events"("environment", "resource_id", "txid" DESC, "id" DESC);
