import { type AuditOperation, auditEventFor, type NewAuditEvent } from '../../domain/audit-event.js';
import type { Principal } from '../../domain/caller.js';

/**
 * The audit trail's resource id of a managed token. Audit resource ids are UUIDs, token ids 16 hex digits:
 * the id is spelled into a UUIDv8 (RFC 9562's custom version), its first 12 digits in the first two groups,
 * the last four around the version and variant digits: 3f9c0a6b1d2e4f57 → 3f9c0a6b-1d2e-84f5-8700-000000000000.
 * Reversible, so an auditor can read the token id back, and filterable with `resourceId`.
 */
export function apiTokenResourceId(tokenId: string): string {
  const id = tokenId.toLowerCase();
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-8${id.slice(12, 15)}-8${id.slice(15, 16)}00-000000000000`;
}

/**
 * The audit events of creating or revoking a token: one per environment the token may act in, so the
 * auditors of each environment (audit:read is per environment) see every token that can act there. A token
 * for '*' gets one per environment configured when the command runs; environments added later have none.
 * Field names only, never the secret or its digest.
 */
export function apiTokenAuditEvents(input: {
  actor: Principal;
  requestId: string;
  operation: Extract<AuditOperation, 'api_token.create' | 'api_token.revoke'>;
  tokenId: string;
  tokenEnvironments: readonly string[];
  configuredEnvironments: readonly string[];
  changedFields: readonly string[];
}): NewAuditEvent[] {
  const environments = input.tokenEnvironments.includes('*') ? input.configuredEnvironments : input.tokenEnvironments;
  return [...new Set(environments)].map((environment) =>
    auditEventFor(
      { environment, principal: input.actor, requestId: input.requestId },
      {
        operation: input.operation,
        resourceType: 'api_token',
        resourceId: apiTokenResourceId(input.tokenId),
        changedFields: input.changedFields,
      },
    ),
  );
}
