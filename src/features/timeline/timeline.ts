import type { AuditOperation } from '../../domain/audit-event.js';

/**
 * A customer's timeline (docs/adr/0111): what happened to the customer and the accounts it holds, newest first, each
 * entry linking to its record. Read from the records themselves (the audit trail, the ledger, the flags and their
 * lifts, the notes), never copied into a table of its own.
 */
export const TIMELINE_KINDS = ['PROFILE', 'ACCOUNT', 'MONEY', 'FLAG', 'VERIFICATION', 'NOTE'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export interface TimelineEntry {
  /** Unique within the timeline: an audit event's, a ledger entry's, a lift's or a note's id (a flag's setting: `flag-set:…`). */
  id: string;
  /** When it happened, by the environment's clock. */
  at: Date;
  kind: TimelineKind;
  /** The audit trail's operation, e.g. `customer.update`, `account.flag.clear`, `transaction.posted`. */
  operation: string;
  /** The principal that did it, as the audit trail names it. */
  actorId: string | null;
  /** Its name then, where the record keeps one (flags, notes), else a token's name now; null for others (e.g. a JWT subject). */
  actorName: string | null;
  /** The record it links to: the customer, an account, a ledger entry (`transaction`), a note or a verification document. */
  recordType: 'customer' | 'account' | 'transaction' | 'note' | 'verification_document';
  recordId: string;
  /** The account it is about, when it is about one. */
  accountId: string | null;
  /** Field names a write set (profile and account writes); empty otherwise. Never values. */
  changedFields: string[];
  /** FLAG: the flag. */
  flag: string | null;
  /** FLAG: why it was set or lifted, as given. */
  reason: string | null;
  /** NOTE: the note's text. */
  text: string | null;
  /** MONEY: the amount (a decimal string), its currency, IN or OUT, and the entry's status. */
  amount: string | null;
  currency: string | null;
  direction: 'IN' | 'OUT' | null;
  status: string | null;
}

/** A page of a timeline: `nextAfter` continues it (older entries); `omittedKinds` are the kinds the reader may not read. */
export interface TimelinePage {
  entries: TimelineEntry[];
  nextAfter: string | null;
  omittedKinds: TimelineKind[];
}

/**
 * The audit trail's writes each kind shows (flags, money and notes are read from their own records, which keep the
 * flag, the amount and the text the audit trail never holds). Reads (a document's content read, a search) are not
 * part of a customer's story and stay in the audit trail.
 */
export const AUDITED_OPERATIONS_OF = {
  PROFILE: [
    'customer.create',
    'customer.update',
    'customer.archive',
    'customer.beneficial_owner.add',
    'customer.beneficial_owner.remove',
  ],
  ACCOUNT: [
    'account.create',
    'account.update',
    'account.close',
    'account.reopen',
    'account.customer.add',
    'account.customer.remove',
    'account.customer.role.set',
    'account.overdraft_limit.set',
    'account.mark_inactive',
    'account.mark_dormant',
    'account.escheatment_notice',
    'account.reactivate',
  ],
  VERIFICATION: [
    'customer.verification.check',
    'customer.verification.result',
    'customer.verification.decide',
    'customer.verification.owner_rejected',
    'customer.verification.document_upload',
    'customer.verification.document_review',
  ],
} as const satisfies Partial<Record<TimelineKind, readonly AuditOperation[]>>;
