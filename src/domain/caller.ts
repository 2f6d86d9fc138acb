/**
 * What a token may do, divided by duty (docs/adr/0001-scopes-by-duty.md). Reads need `:read`, writes need
 * `:write`; `accounts:write` opens, renames, deletes accounts and manages their holders, nothing more;
 * `transactions:write` moves money (deposits, withdrawals, holds, reversals, transfers);
 * `accounts:controls` sets and clears the ledger's flags (FROZEN included) and overdraft limits, so the
 * integration that moves money is not the one that lifts a freeze; `audit:read` reads the audit trail;
 * `events:read` reads the events (the outbox);
 * `customers:ssn_search` searches customers by social security number ("is this person on file?"): its own
 * operation, not a read of support's `customers:read`, which finds customers by name, contact or externalId only;
 * `webhooks:read` / `webhooks:write` read / manage webhook endpoints (their deliveries carry every event, so
 * registering one is as strong as `events:read`, and more: it is its own scope);
 * `ledger:export` streams the environment's whole ledger (GET /{environment}/ledger-entries, settlement accounts
 * included) for reconciliation: an auditor's read, which needs no write scope (statements and balances of
 * past moments read with `accounts:read`);
 * `clock:write` moves an adjustable environment's clock forward, running every end of day in between (a sandbox's
 * time travel: docs/adr/0102); reading the clock and the end of day's record needs `accounts:read`, as the account
 * rules that follow the clock do;
 * `metrics:read` scrapes `GET /metrics` (src/http/metrics.ts), the one scope no domain operation checks;
 * `verification:read` reads a customer's verification (KYC/KYB: status, requirements, checks, decision),
 * `verification:write` asks for checks, and `verification:decide` records a person's decision: the reviewer who
 * approves is not the integration that submits evidence (docs/adr/0101-customer-verification.md).
 * `documents:read` reads a verification document's content, its bytes (a passport's scan): not the metadata, which
 * `verification:read` reads; every such read is audited (docs/adr/0103-verification-documents.md).
 * `notes:read` / `notes:write` read / add case notes on customers and accounts (docs/adr/0105): case text an agent
 * wrote, which a token reading customers or accounts for an integration has no need to see.
 * `accounts:numbers:read` reads an account's account numbers in full (each read audited; everywhere else only their
 * last four digits show), and `accounts:numbers:lookup` finds the account an inbound payment's routing and account
 * number name (audited, rate-limited): the payment rail's integration, which reads nothing else (docs/adr/0107).
 * Adding an account number and setting its status and inbound ACH debits need `accounts:controls`.
 * `products:read` / `products:write` read / define deposit products and change their rates (docs/adr/0112): the
 * bank's product catalogue, which the integration opening accounts reads and product management writes.
 * `tax-forms:read` reads a customer's tax forms (the 1099-INT, docs/adr/0116): a person's name, address and TIN's last
 * four beside a year's interest, a read for the year-end tax run that needs neither `customers:read` nor
 * `accounts:read`, and audited.
 */
export const ACCESS_SCOPES = [
  'customers:read',
  'customers:write',
  'customers:ssn_search',
  'verification:read',
  'verification:write',
  'verification:decide',
  'documents:read',
  'accounts:read',
  'accounts:write',
  'accounts:controls',
  'transactions:write',
  'audit:read',
  'events:read',
  'webhooks:read',
  'webhooks:write',
  'ledger:export',
  'clock:write',
  'metrics:read',
  'notes:read',
  'notes:write',
  'accounts:numbers:read',
  'accounts:numbers:lookup',
  'products:read',
  'products:write',
  'tax-forms:read',
] as const;
export type AccessScope = (typeof ACCESS_SCOPES)[number];

/** Who is acting. Produced by the bearer-auth step (src/auth) and passed explicitly, never read from a global. */
export interface Principal {
  /** Stable identifier for audit: a token id or a JWT subject; never the secret itself. */
  id: string;
  /**
   * Who it is to people, where a record shows its author (a case note, docs/adr/0105) and to the principal itself
   * (GraphQL `viewer`): a managed token's name, a JWT's `name` claim, "API_TOKENS entry 2" or "development token";
   * absent for the service's own jobs, which are shown by `id`. Never a secret.
   */
  name?: string;
  /** 'system': the service's own jobs (voiding expired holds), named in the audit trail. */
  kind: 'static-token' | 'api-token' | 'jwt' | 'system';
  /** The operations this principal may perform (src/domain/authorization.ts checks them). */
  scopes: readonly AccessScope[];
  /** The environments it may act in; '*' is every configured environment. */
  environments: '*' | readonly string[];
  /** Limits on the money it may move (a managed token created with them); absent: none. */
  limits?: PostingLimits;
}

/**
 * How much money a principal may move, enforced by the posting statement itself (src/features/ledger/ledger.store.ts) on
 * deposits, withdrawals, transfers and the posting of a hold; reversals and voids are not limited.
 * Amounts are decimal strings, never floats.
 */
export interface PostingLimits {
  /** The largest amount of one posting, in any currency. */
  maxAmount?: string;
  /** The most it may post per UTC day in each listed currency (ISO 4217 code → amount); other currencies have no daily limit. */
  daily?: Readonly<Record<string, string>>;
}

/**
 * Who is calling, in which environment, for which request: the first argument of every domain operation.
 * Not to be confused with an AccessScope, one of the things a principal may do.
 */
export interface Caller {
  environment: string;
  principal: Principal;
  requestId: string;
}
