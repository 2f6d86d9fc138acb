import { auditEventFor } from '../audit/audit-event.js';
import { authorize, isAuthorized } from '../authorization.js';
import {
  customerHasAccounts,
  customerNotFound,
  fieldsNotUpdatable,
} from '../errors.js';
import type { CreateOptions, IdempotentCreation } from '../idempotency/idempotent-creation.js';
import { isRecordId, newId } from '../ids.js';
import type { Database, LinkedIds, LinkedRecords, LinkRoots, PageRequest, PersonalDataProtector } from '../ports.js';
import type { RequestScope } from '../scope.js';
import { parseInput, presentKeys } from '../validation.js';
import type { Customer } from './customer.js';
import {
  createCustomerSchema,
  NON_UPDATABLE_CUSTOMER_FIELDS,
  UPDATABLE_CUSTOMER_FIELDS,
  updateCustomerSchema,
} from './customer.schemas.js';

/** How many links a nested read may prefetch in one statement; deeper levels are read level by level. */
export const MAX_LINK_DEPTH = 4;

/** Every customer rule of the spec. REST and GraphQL call these methods and only translate. */
export class CustomerService {
  constructor(
    private readonly db: Database,
    private readonly protector: PersonalDataProtector,
    private readonly creation: IdempotentCreation,
  ) {}

  /**
   * Validates and stores a new customer (no accounts, no restrictions); returns its new id. With an
   * idempotency key, a retry of the same request returns the first result (isReplayed() tells).
   */
  async create(scope: RequestScope, input: unknown, options?: CreateOptions): Promise<{ customerId: string }> {
    authorize(scope, 'customers:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(createCustomerSchema, input);
    return this.creation.run(scope, 'customer.create', valid, idempotencyKey, async (stores) => {
      const customerId = newId();
      const sealed = this.protector.seal(
        { environment: scope.environment, customerId },
        { socialSecurityNumber: valid.socialSecurityNumber, documentLocatorNumber: valid.documentLocatorNumber },
      );
      await stores.customers.insert({
        id: customerId,
        environment: scope.environment,
        sealed,
        dateOfBirth: valid.dateOfBirth,
        preferredName: valid.preferredName,
        firstName: valid.firstName,
        middleName: valid.middleName,
        lastName: valid.lastName,
        emails: valid.emails,
        phoneNumbers: valid.phoneNumbers,
        addresses: valid.addresses,
      });
      await stores.audit.append(
        auditEventFor(scope, { operation: 'customer.create', resourceType: 'customer', resourceId: customerId, changedFields: Object.keys(valid), idempotencyKey }),
      );
      return { customerId };
    });
  }

  async get(scope: RequestScope, customerId: string): Promise<Customer> {
    const customer = await this.find(scope, customerId);
    if (!customer) throw customerNotFound();
    return customer;
  }

  /** The customer, or null when it does not exist in the scope's environment. */
  async find(scope: RequestScope, customerId: string): Promise<Customer | null> {
    authorize(scope, 'customers:read');
    if (!isRecordId(customerId)) return null;
    return this.db.stores.customers.findById(scope.environment, customerId);
  }

  /** Batch look-up for per-request loaders: one entry per id, null where absent. */
  async findMany(scope: RequestScope, customerIds: readonly string[]): Promise<(Customer | null)[]> {
    authorize(scope, 'customers:read');
    const valid = customerIds.filter(isRecordId);
    const found = valid.length > 0 ? await this.db.stores.customers.findByIds(scope.environment, valid) : [];
    const byId = new Map(found.map((customer) => [customer.customerId, customer]));
    return customerIds.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /**
   * Batch look-up for nested reads (GraphQL look-ahead): the customers and accounts named in `roots`,
   * and the records linked to them within `depth` links, in one round trip. Roots need the read scope of
   * their kind, as findMany does; links are followed only for a principal that may read both kinds (a
   * nested read it may not make is refused later, by findMany, as without look-ahead). The depth is capped.
   */
  async findLinkedRecords(scope: RequestScope, roots: LinkRoots, depth: number): Promise<LinkedRecords> {
    const walk = this.linkWalk(scope, roots, depth);
    if (!walk) return { customers: [], accounts: [] };
    return this.db.stores.customers.findLinkedRecords(scope.environment, walk.roots, walk.links);
  }

  /** findLinkedRecords for a read that selects nothing but ids and links: the same rules, only those columns. */
  async findLinkedIds(scope: RequestScope, roots: LinkRoots, depth: number): Promise<LinkedIds> {
    const walk = this.linkWalk(scope, roots, depth);
    if (!walk) return { customers: [], accounts: [] };
    return this.db.stores.customers.findLinkedIds(scope.environment, walk.roots, walk.links);
  }

  /** The authorized, well-formed roots and the number of links the principal may follow; undefined: nothing to read. */
  private linkWalk(scope: RequestScope, roots: LinkRoots, depth: number): { roots: LinkRoots; links: number } | undefined {
    if (roots.customerIds.length > 0) authorize(scope, 'customers:read');
    if (roots.accountIds.length > 0) authorize(scope, 'accounts:read');
    const customerIds = roots.customerIds.filter(isRecordId);
    const accountIds = roots.accountIds.filter(isRecordId);
    if (customerIds.length === 0 && accountIds.length === 0) return undefined;
    const mayFollow = isAuthorized(scope, 'customers:read') && isAuthorized(scope, 'accounts:read');
    const links = mayFollow ? Math.max(0, Math.min(Math.trunc(depth), MAX_LINK_DEPTH)) : 0;
    return { roots: { customerIds, accountIds }, links };
  }

  async list(scope: RequestScope, page: PageRequest): Promise<Customer[]> {
    authorize(scope, 'customers:read');
    const after = page.after !== undefined && isRecordId(page.after) ? page.after : undefined;
    return this.db.stores.customers.list(scope.environment, { first: page.first, after });
  }

  /** Partial update of the contact fields; identity fields can never change. */
  async update(scope: RequestScope, customerId: string, input: unknown): Promise<Customer> {
    authorize(scope, 'customers:write');
    const forbidden = presentKeys(input, NON_UPDATABLE_CUSTOMER_FIELDS);
    if (forbidden.length > 0) throw fieldsNotUpdatable(forbidden, UPDATABLE_CUSTOMER_FIELDS);
    const changes = parseInput(updateCustomerSchema, input);
    if (!isRecordId(customerId)) throw customerNotFound();
    return this.db.transaction(async ({ customers, audit }) => {
      const updated = await customers.update(scope.environment, customerId, changes);
      if (!updated) throw customerNotFound();
      const changedFields = Object.keys(changes).filter((field) => changes[field as keyof typeof changes] !== undefined);
      await audit.append(auditEventFor(scope, { operation: 'customer.update', resourceType: 'customer', resourceId: customerId, changedFields }));
      return updated;
    });
  }

  /**
   * Irreversible; refused while any account is linked. The row lock taken here conflicts with the
   * one account creation takes on its customers, so a customer can never be deleted while an account
   * is being linked to it.
   */
  async delete(scope: RequestScope, customerId: string): Promise<void> {
    authorize(scope, 'customers:write');
    if (!isRecordId(customerId)) throw customerNotFound();
    await this.db.transaction(async ({ customers, audit }) => {
      const exists = await customers.lockForDeletion(scope.environment, customerId);
      if (!exists) throw customerNotFound();
      const linked = await customers.countLinkedAccounts(scope.environment, customerId);
      if (linked > 0) throw customerHasAccounts(linked);
      await customers.delete(scope.environment, customerId);
      await audit.append(auditEventFor(scope, { operation: 'customer.delete', resourceType: 'customer', resourceId: customerId, changedFields: [] }));
    });
  }
}
