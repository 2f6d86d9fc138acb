-- The audit trail filtered by who wrote (`principalId`, docs/adr/0071-console-destructive-actions-and-audit-filters.md):
-- "what did this token do" is an auditor's question, and without an index a rare principal meant walking the
-- environment's whole trail back by id for one page. One more index on an append-only table: its cost is one
-- index entry per audited write.
CREATE INDEX "audit_events_environment_principal_id_id_idx" ON "audit_events"("environment", "principal_id", "id");
