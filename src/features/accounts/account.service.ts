import { auditEventFor } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import { type EnvironmentTime, realTime } from '../../domain/environment-clock.js';
import { type Page, pageOf, type PageQuery, type PageRequest, readPage } from '../../domain/pagination.js';
import {
  accountBalanceNotZero,
  accountCustomerLimit,
  accountHasTransactions,
  accountNeedsACustomer,
  accountNotFound,
  customerAccountLimit,
  customerAlreadyLinked,
  customerArchived,
  customerNotLinked,
  fieldsNotUpdatable,
  lastOwner,
  preconditionFailed,
  productMismatch,
  referencedCustomersNotFound,
  referencedProductNotFound,
  roleRequiresIndividual,
  validationFailed,
} from '../../domain/errors.js';
import { amountProblemMessage, exactAmount } from '../ledger/index.js';
import type { CreateOptions, Creation, IdempotentCreation } from '../idempotency/index.js';
import { isRecordId, newId } from '../../domain/ids.js';
import type { AccountChange, AccountCreation, AccountNumberIssuer, AccountStore, ProductTerms } from './ports.js';
import type { CustomerStore } from '../customers/index.js';
import type { Caller, Principal } from '../../domain/caller.js';
import { parseInput, presentKeys } from '../../domain/validation.js';
import { type Account, type AccountFlagDetail, type AccountRole, newAccount, shownRelationships } from './account.js';
import {
  accountFlagSchema,
  ACCOUNT_LIMITS,
  addAccountCustomerSchema,
  createAccountSchema,
  NON_UPDATABLE_ACCOUNT_FIELDS,
  overdraftLimitSchema,
  setAccountCustomerRoleSchema,
  setAccountFlagSchema,
  clearAccountFlagSchema,
  liftAccountFlagSchema,
  UPDATABLE_ACCOUNT_FIELDS,
  updateAccountSchema,
} from './account.schemas.js';
import { CUSTOMER_LIMITS } from '../customers/index.js';
import { expectedVersions, type VersionCondition } from '../../domain/versions.js';
import { type AccountFilter, accountFilterOf, type AccountFilterInput, accountFilterSchema } from './account-search.js';

/** Who lifts a flag whose `until` has passed (src/features/accounts/flag-expiry.job.ts), as the audit trail names it. */
export const FLAG_EXPIRY_PRINCIPAL: Principal = {
  id: 'system:flag-expiry',
  kind: 'system',
  scopes: ['accounts:controls'],
  environments: '*',
};
/** Expired flags lifted per look-up; each in its own statement. */
const FLAG_EXPIRY_BATCH = 100;

/** Refuses customers that are not VERIFIED in a gated environment (src/features/verification/verification-gates.ts). */
export interface CustomerVerificationGate {
  assertCustomersVerified(environment: string, customerIds: readonly string[]): Promise<void>;
}

/** Every account rule of the spec. REST and GraphQL call these methods and only translate. */
export class AccountService {
  constructor(
    private readonly stores: { accounts: AccountStore; customers: CustomerStore },
    private readonly creation: IdempotentCreation,
    /** Issues each new account's first account number, written by the creation's statement (docs/adr/0107). */
    private readonly accountNumbers: AccountNumberIssuer,
    /** The environments' clocks (docs/adr/0102): a flag's `until` is checked against its environment's time. */
    private readonly clock: EnvironmentTime = realTime,
    /** The verification gate (docs/adr/0104): VERIFICATION_REQUIRED in a gated environment; none by default. */
    private readonly verificationGate: CustomerVerificationGate = { assertCustomersVerified: async () => undefined },
    /** The products accounts open on (docs/adr/0112); none: every `productCode` names no product. */
    private readonly products: ProductTerms = { termsOf: async () => null },
  ) {}

  /**
   * The product an account opens on: its type and currency must be the account's. PRODUCT_NOT_FOUND (422) for a code
   * no product has, PRODUCT_MISMATCH with a detail per differing field. A product never changes nor goes away, so
   * what is checked here still holds when the account's statement runs.
   */
  private async checkProduct(caller: Caller, code: string, type: string, currency: string): Promise<void> {
    const terms = await this.products.termsOf(caller.environment, code);
    if (!terms) throw referencedProductNotFound();
    const details = [
      ...(terms.accountType === type
        ? []
        : [{ field: 'type', code: 'PRODUCT_MISMATCH', message: "Must be the product's accountType." }]),
      ...(terms.currency === currency
        ? []
        : [{ field: 'currency', code: 'PRODUCT_MISMATCH', message: "Must be the product's currency." }]),
    ];
    if (details.length > 0) throw productMismatch(details);
  }

  /**
   * Creates an account linked to at least one existing customer of the same environment; none of them can
   * be deleted while the account is being created. With an idempotency key, a retry of the same request
   * returns the first result, marked as replayed.
   */
  async create(caller: Caller, input: unknown, options?: CreateOptions): Promise<Creation<Account>> {
    authorize(caller, 'accounts:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(createAccountSchema, input);
    const customerIds = valid.associatedCustomerIds.map((id) => id.toLowerCase());
    if (!customerIds.every(isRecordId)) throw await this.missingCustomers(caller, customerIds);
    const given = new Map((valid.relationships ?? []).map((r) => [r.customerId.toLowerCase(), r.role]));
    const roles = customerIds.map((id): AccountRole => given.get(id) ?? 'OWNER');
    const relationships = shownRelationships(customerIds, roles);
    const productCode = typeof valid.productCode === 'string' ? valid.productCode : undefined;
    if (productCode !== undefined) await this.checkProduct(caller, productCode, valid.type, valid.currency);
    const account = newAccount({
      accountId: newId(),
      type: valid.type,
      name: valid.name,
      currency: valid.currency,
      customerIds,
      ...(relationships && { relationships }),
      ...(typeof valid.externalId === 'string' && { externalId: valid.externalId }),
      ...(valid.metadata && { metadata: valid.metadata }),
      ...(productCode !== undefined && { productCode }),
    });
    const changedFields = Object.keys(valid).filter(
      (field) => valid[field as keyof typeof valid] !== null && valid[field as keyof typeof valid] !== undefined,
    );
    const audit = auditEventFor(caller, {
      operation: 'account.create',
      resourceType: 'account',
      resourceId: account.accountId,
      changedFields,
      idempotencyKey,
    });
    const request = { ...valid, associatedCustomerIds: customerIds };
    const creation = await this.creation.run(
      caller,
      'account.create',
      request,
      idempotencyKey,
      account,
      async (idempotency) => {
        await this.verificationGate.assertCustomersVerified(caller.environment, customerIds);
        let inserted: AccountCreation;
        // A number drawn that the environment already has undoes the whole statement: drawn again (docs/adr/0107).
        for (let draw = 0; ; draw++) {
          inserted = await this.stores.accounts.insert(
            {
              id: account.accountId,
              environment: caller.environment,
              type: account.type,
              name: account.name,
              currency: account.currency,
              customerIds,
              roles,
              externalId: account.externalId,
              metadata: account.metadata,
              accountNumber: this.accountNumbers.issue(caller.environment, account.accountId),
              productCode,
            },
            { audit, idempotency },
          );
          if (inserted.outcome !== 'account-number-taken' || draw >= 4) break;
        }
        if (inserted.outcome === 'account-number-taken') throw new Error('No free account number after several draws');
        if (inserted.outcome === 'customers-missing') throw referencedCustomersNotFound(inserted.missing);
        if (inserted.outcome === 'role-requires-individual') throw roleRequiresIndividual(inserted.customerIds);
        if (inserted.outcome === 'customer-account-limit') throw customerAccountLimit(CUSTOMER_LIMITS.accounts);
        if (inserted.outcome === 'customer-archived') throw customerArchived();
        return inserted.outcome;
      },
    );
    // A key's record written before accounts had versions: every account is created at version 1.
    return creation.replayed
      ? { ...creation, value: { ...creation.value, version: creation.value.version ?? 1 } }
      : creation;
  }

  /** CUSTOMER_NOT_FOUND for the ids (malformed ones included) that name no customer of the environment. */
  private async missingCustomers(caller: Caller, customerIds: readonly string[]) {
    const found = await this.stores.customers.findByIds(caller.environment, customerIds.filter(isRecordId));
    const existing = new Set(found.map((customer) => customer.customerId));
    return referencedCustomersNotFound(customerIds.filter((id) => !existing.has(id)));
  }

  async get(caller: Caller, accountId: string): Promise<Account> {
    const account = await this.findById(caller, accountId);
    if (!account) throw accountNotFound();
    return account;
  }

  /** The account, or null when it does not exist in the caller's environment. */
  async findById(caller: Caller, accountId: string): Promise<Account | null> {
    authorize(caller, 'accounts:read');
    if (!isRecordId(accountId)) return null;
    return this.stores.accounts.findById(caller.environment, accountId);
  }

  /** Batch look-up for per-request loaders: one entry per id, null where absent. */
  async findMany(caller: Caller, accountIds: readonly string[]): Promise<(Account | null)[]> {
    authorize(caller, 'accounts:read');
    const valid = accountIds.filter(isRecordId);
    const found = valid.length > 0 ? await this.stores.accounts.findByIds(caller.environment, valid) : [];
    const byId = new Map(found.map((account) => [account.accountId, account]));
    return accountIds.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /**
   * The accounts matching every given filter (account-search.ts), in id order (creation order), a page at a
   * time: REST `GET /{environment}/account` (its query string parsed by account.rest.ts) and GraphQL
   * `accounts(filter, first, after)`. The filter is validated here: VALIDATION_FAILED; a page outside 1–100,
   * VALIDATION_FAILED (`first`).
   */
  async find(caller: Caller, filter: AccountFilterInput = {}, page: PageQuery = {}): Promise<Page<Account>> {
    authorize(caller, 'accounts:read');
    const valid = parseInput(accountFilterSchema, filter);
    return this.page(caller, accountFilterOf(valid), pageOf(page));
  }

  private async page(caller: Caller, filter: AccountFilter, page: PageRequest): Promise<Page<Account>> {
    // Ids are UUIDs: a cursor or a customer id that is none matches nothing.
    if (
      (page.after !== undefined && !isRecordId(page.after)) ||
      (filter.customerId !== undefined && !isRecordId(filter.customerId))
    )
      return { items: [], nextAfter: null };
    const request = { first: page.first, after: page.after?.toLowerCase() };
    // Without a filter, the list of every account in id order (its own statement, the one `accounts` always read).
    const read =
      Object.keys(filter).length === 0
        ? (paged: PageRequest) => this.stores.accounts.list(caller.environment, paged)
        : (paged: PageRequest) => this.stores.accounts.search(caller.environment, filter, paged);
    return readPage(request, read, (account) => account.accountId);
  }

  /** Renames or re-denominates an account; its type never changes. */
  /** With a condition, only while the account's version is one it names: PRECONDITION_FAILED otherwise (src/domain/versions.ts). */
  async update(caller: Caller, accountId: string, input: unknown, condition?: VersionCondition): Promise<Account> {
    authorize(caller, 'accounts:write');
    const forbidden = presentKeys(input, NON_UPDATABLE_ACCOUNT_FIELDS);
    if (forbidden.length > 0) throw fieldsNotUpdatable(forbidden, UPDATABLE_ACCOUNT_FIELDS);
    const changes = parseInput(updateAccountSchema, input);
    if (!isRecordId(accountId)) throw accountNotFound();
    const audit = auditEventFor(caller, {
      operation: 'account.update',
      resourceType: 'account',
      resourceId: accountId,
      changedFields: Object.keys(changes).filter((field) => changes[field as keyof typeof changes] !== undefined),
    });
    const update = await this.stores.accounts.update(
      caller.environment,
      accountId,
      changes,
      { audit },
      expectedVersions(condition),
    );
    if (update.outcome === 'not-found') throw accountNotFound();
    if (update.outcome === 'stale') throw preconditionFailed();
    if (update.outcome === 'currency-locked') throw accountHasTransactions();
    return update.account;
  }

  /** Deletes an empty account (zero balance, no hold); its customers no longer list it, its ledger history stays. A condition as for `update`. */
  async delete(caller: Caller, accountId: string, condition?: VersionCondition): Promise<void> {
    authorize(caller, 'accounts:write');
    if (!isRecordId(accountId)) throw accountNotFound();
    const audit = auditEventFor(caller, {
      operation: 'account.delete',
      resourceType: 'account',
      resourceId: accountId,
      changedFields: [],
    });
    const deletion = await this.stores.accounts.delete(
      caller.environment,
      accountId,
      { audit },
      expectedVersions(condition),
    );
    if (deletion.outcome === 'not-found') throw accountNotFound();
    if (deletion.outcome === 'stale') throw preconditionFailed();
    if (deletion.outcome === 'balance-not-zero') throw accountBalanceNotZero();
  }

  /**
   * Links one more existing customer of the environment with a role (OWNER by default: a joint holder); already
   * linked with this role: unchanged; with another: CUSTOMER_ALREADY_LINKED (setRole changes it). In a gated
   * environment the customer must be VERIFIED (VERIFICATION_REQUIRED), whatever its role, as an account's first
   * customers must: else an unverified person would hold an account the creation's gate kept from it.
   */
  async addCustomer(caller: Caller, accountId: string, input: unknown): Promise<Account> {
    authorize(caller, 'accounts:write');
    const { customerId, role = 'OWNER' } = parseInput(addAccountCustomerSchema, input);
    if (!isRecordId(accountId)) throw accountNotFound();
    const id = customerId.toLowerCase();
    if (!isRecordId(id)) throw referencedCustomersNotFound([customerId]);
    // Before the write, as the creation's (a customer that does not exist is not named: the store answers for it).
    await this.verificationGate.assertCustomersVerified(caller.environment, [id]);
    const audit = auditEventFor(caller, {
      operation: 'account.customer.add',
      resourceType: 'account',
      resourceId: accountId,
      changedFields: ['customerIds'],
    });
    const change = await this.stores.accounts.addCustomer(
      caller.environment,
      accountId,
      id,
      ACCOUNT_LIMITS.associatedCustomers,
      { audit },
      role,
    );
    if (change.outcome === 'customer-not-found') throw referencedCustomersNotFound([id]);
    if (change.outcome === 'linked-with-another-role') throw customerAlreadyLinked();
    if (change.outcome === 'role-requires-individual') throw roleRequiresIndividual();
    if (change.outcome === 'customer-limit') throw accountCustomerLimit(ACCOUNT_LIMITS.associatedCustomers);
    if (change.outcome === 'customer-account-limit') throw customerAccountLimit(CUSTOMER_LIMITS.accounts);
    if (change.outcome === 'customer-archived') throw customerArchived();
    return changedAccount(change);
  }

  /**
   * Unlinks a customer; the last one stays (ACCOUNT_NEEDS_A_CUSTOMER), and so does the last OWNER (LAST_OWNER). A
   * condition as for `update`, on the account's version.
   */
  async removeCustomer(
    caller: Caller,
    accountId: string,
    customerId: string,
    condition?: VersionCondition,
  ): Promise<Account> {
    authorize(caller, 'accounts:write');
    if (!isRecordId(accountId)) throw accountNotFound();
    if (!isRecordId(customerId)) throw customerNotLinked();
    const audit = auditEventFor(caller, {
      operation: 'account.customer.remove',
      resourceType: 'account',
      resourceId: accountId,
      changedFields: ['customerIds'],
    });
    const change = await this.stores.accounts.removeCustomer(
      caller.environment,
      accountId,
      customerId.toLowerCase(),
      { audit },
      expectedVersions(condition),
    );
    if (change.outcome === 'customer-not-found') throw customerNotLinked();
    if (change.outcome === 'last-customer') throw accountNeedsACustomer();
    if (change.outcome === 'last-owner') throw lastOwner();
    return changedAccount(change);
  }

  /**
   * Gives a linked customer another role (`input`: `{role}`): CUSTOMER_NOT_FOUND when it is not linked, LAST_OWNER
   * for the last OWNER's, ROLE_REQUIRES_INDIVIDUAL for a BUSINESS customer as a signer or user. The same role
   * changes nothing (audited, no event). A condition as for `update`, on the account's version.
   */
  async setCustomerRole(
    caller: Caller,
    accountId: string,
    customerId: string,
    input: unknown,
    condition?: VersionCondition,
  ): Promise<Account> {
    authorize(caller, 'accounts:write');
    const { role } = parseInput(setAccountCustomerRoleSchema, input);
    if (!isRecordId(accountId)) throw accountNotFound();
    if (!isRecordId(customerId)) throw customerNotLinked();
    const audit = auditEventFor(caller, {
      operation: 'account.customer.role.set',
      resourceType: 'account',
      resourceId: accountId,
      changedFields: ['relationships'],
    });
    const change = await this.stores.accounts.setRole(
      caller.environment,
      accountId.toLowerCase(),
      customerId.toLowerCase(),
      role,
      { audit },
      expectedVersions(condition),
    );
    if (change.outcome === 'customer-not-found') throw customerNotLinked();
    if (change.outcome === 'last-owner') throw lastOwner();
    if (change.outcome === 'role-requires-individual') throw roleRequiresIndividual();
    return changedAccount(change);
  }

  /**
   * Sets a flag the ledger enforces, with an optional reason and end (`input`: `{reason?, until?}`, or nothing,
   * as the contract's body-less call). Setting a set flag without either changes nothing; with either, its
   * details are replaced (an absent one becomes none). A condition as for `update`.
   */
  async setFlag(
    caller: Caller,
    accountId: string,
    flag: unknown,
    input?: unknown,
    condition?: VersionCondition,
  ): Promise<Account> {
    authorize(caller, 'accounts:controls');
    const valid = parseInput(accountFlagSchema, { flag });
    const details = parseInput(setAccountFlagSchema, input ?? {});
    const until = details.until === undefined ? null : new Date(details.until);
    if (until !== null && until.getTime() <= (await this.clock.now(caller.environment)).getTime()) {
      throw validationFailed([{ field: 'until', code: 'OUT_OF_RANGE', message: 'Must be in the future.' }]);
    }
    if (!isRecordId(accountId)) throw accountNotFound();
    const replace = details.reason !== undefined || details.until !== undefined;
    const audit = auditEventFor(caller, {
      operation: 'account.flag.set',
      resourceType: 'account',
      resourceId: accountId,
      changedFields: ['flags', ...presentKeys(details, ['reason', 'until'])],
    });
    const setting = {
      reason: details.reason ?? null,
      until,
      setBy: caller.principal.id,
      setByName: caller.principal.name ?? null,
      replace,
    };
    return changedAccount(
      await this.stores.accounts.setFlag(
        caller.environment,
        accountId.toLowerCase(),
        valid.flag,
        setting,
        { audit },
        expectedVersions(condition),
      ),
    );
  }

  /** Clears a flag (and its details); clearing a flag that is not set changes nothing. A condition as for `update`. */
  /** Lifts a flag saying why (REST's `…/lift`): `input.reason` is required. Otherwise as clearFlag. */
  async liftFlag(
    caller: Caller,
    accountId: string,
    flag: unknown,
    input: unknown,
    condition?: VersionCondition,
  ): Promise<Account> {
    authorize(caller, 'accounts:controls');
    parseInput(accountFlagSchema, { flag });
    return this.clearFlag(caller, accountId, flag, parseInput(liftAccountFlagSchema, input), condition);
  }

  /** Lifts a flag, keeping who lifted it and, when given, why (`input.reason`, docs/adr/0111). */
  async clearFlag(
    caller: Caller,
    accountId: string,
    flag: unknown,
    input?: unknown,
    condition?: VersionCondition,
  ): Promise<Account> {
    authorize(caller, 'accounts:controls');
    const valid = parseInput(accountFlagSchema, { flag });
    const details = parseInput(clearAccountFlagSchema, input ?? {});
    if (!isRecordId(accountId)) throw accountNotFound();
    const audit = auditEventFor(caller, {
      operation: 'account.flag.clear',
      resourceType: 'account',
      resourceId: accountId,
      changedFields: ['flags', ...presentKeys(details, ['reason'])],
    });
    return changedAccount(
      await this.stores.accounts.clearFlag(
        caller.environment,
        accountId.toLowerCase(),
        valid.flag,
        { audit },
        { reason: details.reason ?? null, liftedByName: caller.principal.name ?? null },
        undefined,
        expectedVersions(condition),
      ),
    );
  }

  /** The flags the account carries, each with its reason, when and by whom it was set, and its end. */
  async flagDetails(caller: Caller, accountId: string): Promise<AccountFlagDetail[]> {
    const [details] = await this.flagDetailsOfMany(caller, [accountId]);
    if (!details) throw accountNotFound();
    return details;
  }

  /** Batch look-up for per-request loaders: one entry per id, null where there is no such account. */
  async flagDetailsOfMany(caller: Caller, accountIds: readonly string[]): Promise<(AccountFlagDetail[] | null)[]> {
    authorize(caller, 'accounts:read');
    const valid = accountIds.filter(isRecordId).map((id) => id.toLowerCase());
    const found =
      valid.length > 0
        ? await this.stores.accounts.flagDetails(caller.environment, valid)
        : new Map<string, AccountFlagDetail[]>();
    return accountIds.map((id) => found.get(id.toLowerCase()) ?? null);
  }

  /**
   * Lifts the flags whose `until` has passed, a batch at a time, each by its own statement, audited as
   * FLAG_EXPIRY_PRINCIPAL with the event a manual clear writes. Without `due`, every environment's flags past its
   * clock's now (the intra-day sweep); with it, the environment's flags that end by `due.by`, audited with
   * `due.requestId` (the end of day's step, docs/adr/0102). The statement re-checks `until` on the locked rows, so a
   * flag extended meanwhile stays, and instances running this at once never lift one twice.
   */
  async liftExpiredFlags(due?: { environment: string; by: Date; requestId: string }): Promise<number> {
    let lifted = 0;
    const flags = due
      ? await this.stores.accounts.expiredFlagsOf(due.environment, due.by, FLAG_EXPIRY_BATCH)
      : await this.stores.accounts.expiredFlags(FLAG_EXPIRY_BATCH);
    for (const expired of flags) {
      const caller: Caller = {
        environment: expired.environment,
        principal: FLAG_EXPIRY_PRINCIPAL,
        // An account's flags are its records here: one lift per flag and day (its audit event's key names both).
        requestId: due ? `${due.requestId}:${expired.flag}` : newId(),
      };
      const audit = auditEventFor(caller, {
        operation: 'account.flag.expire',
        resourceType: 'account',
        resourceId: expired.accountId,
        changedFields: ['flags'],
      });
      const change = await this.stores.accounts.clearFlag(
        expired.environment,
        expired.accountId,
        expired.flag,
        { audit },
        { reason: null, liftedByName: null },
        expired.dueBy,
      );
      if (change.outcome === 'changed') lifted++;
    }
    return lifted;
  }

  /** How far below zero the available balance may go (0: no overdraft). A condition as for `update`. */
  async setOverdraftLimit(
    caller: Caller,
    accountId: string,
    input: unknown,
    condition?: VersionCondition,
  ): Promise<Account> {
    authorize(caller, 'accounts:controls');
    const valid = parseInput(overdraftLimitSchema, input);
    if (!isRecordId(accountId)) throw accountNotFound();
    const account = await this.stores.accounts.findById(caller.environment, accountId.toLowerCase());
    if (!account) throw accountNotFound();
    const limit = overdraftLimitOf(valid.overdraftLimit, account.currency);
    const audit = auditEventFor(caller, {
      operation: 'account.overdraft_limit.set',
      resourceType: 'account',
      resourceId: accountId,
      changedFields: ['overdraftLimit'],
    });
    return changedAccount(
      await this.stores.accounts.setOverdraftLimit(
        caller.environment,
        accountId,
        limit,
        { audit },
        expectedVersions(condition),
      ),
    );
  }
}

function changedAccount(change: AccountChange): Account {
  if (change.outcome === 'changed' || change.outcome === 'unchanged') return change.account;
  if (change.outcome === 'account-not-found') throw accountNotFound();
  if (change.outcome === 'stale') throw preconditionFailed();
  throw new Error(`unexpected account change outcome ${change.outcome}`);
}

/** 0 is a valid limit (no overdraft); otherwise the same rules as any amount of the currency. */
function overdraftLimitOf(value: number | string, currency: string): string {
  if (value === 0 || value === '0') return '0';
  const exact = exactAmount(value, currency);
  if ('problem' in exact) {
    throw validationFailed([
      {
        field: 'overdraftLimit',
        code: exact.problem === 'too-many-decimals' ? 'TOO_PRECISE' : 'OUT_OF_RANGE',
        message: amountProblemMessage(exact.problem, currency),
      },
    ]);
  }
  return exact.amount;
}
