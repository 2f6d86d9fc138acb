import { newId } from './ids.js';
import type { Caller } from './caller.js';

export const AUDIT_OPERATIONS = [
  'customer.create',
  'customer.update',
  'customer.delete',
  // A business's beneficial owner added or removed (docs/adr/0094); resourceId: the business.
  'customer.beneficial_owner.add',
  'customer.beneficial_owner.remove',
  // A customer's verification (docs/adr/0101): a check asked (verification:write), its result applied (principal
  // system:verification-<provider>), a person's decision (verification:decide), and a business sent back to
  // review because one of its owners was rejected (in the owner's transaction, by the owner's principal).
  'customer.verification.check',
  'customer.verification.result',
  'customer.verification.decide',
  'customer.verification.owner_rejected',
  // Its documents (docs/adr/0103): an upload (verification:write), a review (verification:decide) and every read of
  // a document's content (documents:read), each with the document as resourceId (resourceType verification_document).
  'customer.verification.document_upload',
  'customer.verification.document_review',
  'customer.verification.document_read',
  // A case note added (docs/adr/0105); resourceType note, resourceId: the note (never its text).
  'customer.note.add',
  'account.create',
  'account.update',
  'account.delete',
  'account.customer.add',
  'account.customer.remove',
  // A linked customer's role changed (docs/adr/0091).
  'account.customer.role.set',
  'account.flag.set',
  'account.flag.clear',
  // A flag lifted by itself at its `until` (principal system:flag-expiry).
  'account.flag.expire',
  'account.overdraft_limit.set',
  'account.note.add',
  // An account closed or reopened, a customer archived (docs/adr/0106).
  'account.close',
  'account.reopen',
  'customer.archive',
  // Dormancy (docs/adr/0109): the end of day marks an account INACTIVE or DORMANT and notices its escheatment (principal
  // system:end-of-day); a reactivation makes it active again.
  'account.mark_inactive',
  'account.mark_dormant',
  'account.escheatment_notice',
  'account.reactivate',
  'transaction.create',
  'transaction.post',
  'transaction.void',
  'transaction.expire',
  'transaction.reverse',
  'transfer.create',
  // Who receives what: webhook endpoints (resourceId: the endpoint) and PII key rotation runs (resourceId:
  // the run; one event per environment and batch, written in the batch's transaction).
  'webhook_endpoint.create',
  'webhook_endpoint.update',
  'webhook_endpoint.delete',
  'webhook_endpoint.enable',
  'webhook_endpoint.disable',
  'webhook_endpoint.rotate_secret',
  'webhook_endpoint.redeliver',
  'pii_rotation.reencrypt_customers',
  'pii_rotation.reencrypt_webhook_secrets',
  'pii_rotation.reencrypt_account_numbers',
  // Managed API tokens (npm run token), one event per environment the token may act in.
  'api_token.create',
  'api_token.revoke',
  // A search by social security number (resourceId: the search; matchedCount: the customers it found).
  'customer.search',
  // A creation refused because a customer of the environment has its SSN (CUSTOMER_ALREADY_EXISTS): the answer
  // tells that the number is on file, as a search would. resourceId: the id the refused customer would have had
  // (no customer has it); never the existing customer's id or the number.
  'customer.create.refused',
  // Account numbers (docs/adr/0107), resourceType account_number, resourceId the number's id: one issued (at the
  // account's creation that is account.create's own row), its controls set, the full numbers of an account read
  // (resourceType account, resourceId the account), a look-up for an inbound payment (resourceId: the number found,
  // or the look-up's own id when none was). Never the digits.
  'account.account_number.create',
  'account.account_number.update',
  'account.account_number.read',
  'account_number.lookup',
  // A sandbox's clock moved forward (POST /{environment}/clock/advance, docs/adr/0102); resourceId: the advance.
  'clock.advance',
  // Deposit products (docs/adr/0112), resourceType product, resourceId the product: defined, a rate scheduled.
  'product.create',
  'product.rate.change',
  // Interest (docs/adr/0113), principal system:end-of-day: a day's accrual (resourceType account, resourceId the
  // account), a period's posting (resourceType transaction, resourceId the account's credit).
  'account.interest.accrue',
  'account.interest.post',
  // The monthly maintenance fee (docs/adr/0115), principal system:end-of-day, once per account and month: charged
  // (resourceType transaction, resourceId the account's debit), waived or uncollected (resourceType account).
  'account.maintenance_fee.charge',
  'account.maintenance_fee.waive',
  'account.maintenance_fee.uncollected',
  // A customer's 1099-INT read (docs/adr/0116; resourceType customer): it shows a person's name, address and TIN's
  // last four, so every read is on the trail, whichever surface or format asked.
  'customer.tax_form.read',
] as const;
export type AuditOperation = (typeof AUDIT_OPERATIONS)[number];

export const AUDIT_RESOURCE_TYPES = [
  'customer',
  'account',
  'transaction',
  'transfer',
  'webhook_endpoint',
  'pii_rotation',
  'api_token',
  'note',
  'environment_clock',
  'verification_document',
  'account_number',
  'product',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/**
 * One successful write (or a read that consults an SSN: a search, a creation refused because the number is on
 * file), as the audit trail keeps it: who, where, what and which fields, never the values written (so an SSN or
 * document locator number can never reach the trail).
 */
export interface AuditEvent {
  eventId: string;
  /** ISO 8601, UTC: the real time. */
  occurredAt: string;
  /** ISO 8601, UTC: the environment's time (its clock, docs/adr/0102); the real time for events before clocks. */
  environmentOccurredAt: string;
  /** `static:<keyed label>`, `token:<id>`, `jwt:<subject>`, or an operator command's `cli:<command>`. */
  principalId: string;
  environment: string;
  operation: AuditOperation;
  resourceType: AuditResourceType;
  resourceId: string;
  requestId: string;
  idempotencyKey: string | null;
  /**
   * Names of the fields the write set (all given fields on create, the sent ones on update, none on delete); a search's
   * filters. None for a control or holder call that found nothing to change (src/db/sql/write-effects.ts, auditInsertOfCall).
   */
  changedFields: string[];
  /** A search's: how many customers it found. Absent for writes. */
  matchedCount?: number;
}

export type NewAuditEvent = Omit<AuditEvent, 'occurredAt' | 'environmentOccurredAt'>;

/** The audit event of a write made by `caller`. */
export function auditEventFor(
  caller: Caller,
  write: {
    operation: AuditOperation;
    resourceType: AuditResourceType;
    resourceId: string;
    changedFields: readonly string[];
    idempotencyKey?: string | undefined;
  },
): NewAuditEvent {
  return {
    eventId: newId(),
    principalId: caller.principal.id,
    environment: caller.environment,
    operation: write.operation,
    resourceType: write.resourceType,
    resourceId: write.resourceId,
    requestId: caller.requestId,
    idempotencyKey: write.idempotencyKey ?? null,
    changedFields: [...write.changedFields],
  };
}
