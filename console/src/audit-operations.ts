/**
 * The audit trail's operations, for the audit page's filter: the same list as the service's
 * (src/domain/audit-event.ts, AUDIT_OPERATIONS; test/console/audit-operations.test.ts keeps them equal).
 * The console is a client of the public API only, and GraphQL answers `operation` as a string, so the list is
 * kept here rather than imported from the service.
 */
export const AUDIT_OPERATIONS = [
  'customer.create',
  'customer.update',
  'customer.delete',
  'customer.beneficial_owner.add',
  'customer.beneficial_owner.remove',
  'account.create',
  'account.update',
  'account.delete',
  'account.customer.add',
  'account.customer.remove',
  'account.customer.role.set',
  'account.flag.set',
  'account.flag.clear',
  'account.flag.expire',
  'account.overdraft_limit.set',
  'transaction.create',
  'transaction.post',
  'transaction.void',
  'transaction.expire',
  'transaction.reverse',
  'transfer.create',
  'webhook_endpoint.create',
  'webhook_endpoint.update',
  'webhook_endpoint.delete',
  'webhook_endpoint.enable',
  'webhook_endpoint.disable',
  'webhook_endpoint.rotate_secret',
  'webhook_endpoint.redeliver',
  'pii_rotation.reencrypt_customers',
  'pii_rotation.reencrypt_webhook_secrets',
  'api_token.create',
  'api_token.revoke',
  'customer.search',
  'customer.create.refused',
  'clock.advance',
] as const;
