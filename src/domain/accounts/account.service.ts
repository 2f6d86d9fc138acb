import { auditEventFor } from '../audit/audit-event.js';
import { authorize } from '../authorization.js';
import { accountNotFound, fieldsNotUpdatable, referencedCustomersNotFound } from '../errors.js';
import type { CreateOptions, IdempotentCreation } from '../idempotency/idempotent-creation.js';
import { isRecordId, newId } from '../ids.js';
import type { Database, PageRequest } from '../ports.js';
import type { RequestScope } from '../scope.js';
import { parseInput, presentKeys } from '../validation.js';
import type { Account } from './account.js';
import {
  createAccountSchema,
  NON_UPDATABLE_ACCOUNT_FIELDS,
  UPDATABLE_ACCOUNT_FIELDS,
  updateAccountSchema,
} from './account.schemas.js';

/** Every account rule of the spec. REST and GraphQL call these methods and only translate. */
export class AccountService {
  constructor(
    private readonly db: Database,
    private readonly creation: IdempotentCreation,
  ) {}

  /**
   * Creates an account linked to at least one existing customer of the same environment. The
   * customers are locked for the length of the transaction so none can be deleted mid-way. With an
   * idempotency key, a retry of the same request returns the first result (isReplayed() tells).
   */
  async create(scope: RequestScope, input: unknown, options?: CreateOptions): Promise<Account> {
    authorize(scope, 'accounts:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(createAccountSchema, input);
    const customerIds = valid.associatedCustomerIds.map((id) => id.toLowerCase());
    const request = { ...valid, associatedCustomerIds: customerIds };
    return this.creation.run(scope, 'account.create', request, idempotencyKey, async ({ customers, accounts, audit }) => {
      const existing = new Set(await customers.lockForLinking(scope.environment, customerIds));
      const missing = customerIds.filter((id) => !existing.has(id));
      if (missing.length > 0) throw referencedCustomersNotFound(missing);
      const account = await accounts.insert({
        id: newId(),
        environment: scope.environment,
        type: valid.type,
        name: valid.name,
        currency: valid.currency,
        customerIds,
      });
      await audit.append(
        auditEventFor(scope, { operation: 'account.create', resourceType: 'account', resourceId: account.accountId, changedFields: Object.keys(valid), idempotencyKey }),
      );
      return account;
    });
  }

  async get(scope: RequestScope, accountId: string): Promise<Account> {
    const account = await this.find(scope, accountId);
    if (!account) throw accountNotFound();
    return account;
  }

  async find(scope: RequestScope, accountId: string): Promise<Account | null> {
    authorize(scope, 'accounts:read');
    if (!isRecordId(accountId)) return null;
    return this.db.stores.accounts.findById(scope.environment, accountId);
  }

  /** Batch look-up for per-request loaders: one entry per id, null where absent. */
  async findMany(scope: RequestScope, accountIds: readonly string[]): Promise<(Account | null)[]> {
    authorize(scope, 'accounts:read');
    const valid = accountIds.filter(isRecordId);
    const found = valid.length > 0 ? await this.db.stores.accounts.findByIds(scope.environment, valid) : [];
    const byId = new Map(found.map((account) => [account.accountId, account]));
    return accountIds.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  async list(scope: RequestScope, page: PageRequest): Promise<Account[]> {
    authorize(scope, 'accounts:read');
    const after = page.after !== undefined && isRecordId(page.after) ? page.after : undefined;
    return this.db.stores.accounts.list(scope.environment, { first: page.first, after });
  }

  /** Renames or re-denominates an account; its type never changes. */
  async update(scope: RequestScope, accountId: string, input: unknown): Promise<Account> {
    authorize(scope, 'accounts:write');
    const forbidden = presentKeys(input, NON_UPDATABLE_ACCOUNT_FIELDS);
    if (forbidden.length > 0) throw fieldsNotUpdatable(forbidden, UPDATABLE_ACCOUNT_FIELDS);
    const changes = parseInput(updateAccountSchema, input);
    if (!isRecordId(accountId)) throw accountNotFound();
    return this.db.transaction(async ({ accounts, audit }) => {
      const updated = await accounts.update(scope.environment, accountId, changes);
      if (!updated) throw accountNotFound();
      await audit.append(auditEventFor(scope, { operation: 'account.update', resourceType: 'account', resourceId: accountId, changedFields: Object.keys(changes) }));
      return updated;
    });
  }

  /** Deletes the account; its customers no longer list it. */
  async delete(scope: RequestScope, accountId: string): Promise<void> {
    authorize(scope, 'accounts:write');
    if (!isRecordId(accountId)) throw accountNotFound();
    await this.db.transaction(async ({ accounts, audit }) => {
      const deleted = await accounts.delete(scope.environment, accountId);
      if (!deleted) throw accountNotFound();
      await audit.append(auditEventFor(scope, { operation: 'account.delete', resourceType: 'account', resourceId: accountId, changedFields: [] }));
    });
  }
}
