import {
  customerHasAccounts,
  customerNotFound,
  fieldsNotUpdatable,
} from '../errors.js';
import { isRecordId, newId } from '../ids.js';
import type { Database, PageRequest, PersonalDataProtector } from '../ports.js';
import type { RequestScope } from '../scope.js';
import { parseInput, presentKeys } from '../validation.js';
import type { Customer } from './customer.js';
import {
  createCustomerSchema,
  NON_UPDATABLE_CUSTOMER_FIELDS,
  UPDATABLE_CUSTOMER_FIELDS,
  updateCustomerSchema,
} from './customer.schemas.js';

/** Every customer rule of the spec. REST and GraphQL call these methods and only translate. */
export class CustomerService {
  constructor(
    private readonly db: Database,
    private readonly protector: PersonalDataProtector,
  ) {}

  /** Validates and stores a new customer (no accounts, no restrictions); returns its new id. */
  async create(scope: RequestScope, input: unknown): Promise<{ customerId: string }> {
    const valid = parseInput(createCustomerSchema, input);
    const customerId = newId();
    const sealed = this.protector.seal(
      { environment: scope.environment, customerId },
      { socialSecurityNumber: valid.socialSecurityNumber, documentLocatorNumber: valid.documentLocatorNumber },
    );
    await this.db.stores.customers.insert({
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
    return { customerId };
  }

  async get(scope: RequestScope, customerId: string): Promise<Customer> {
    const customer = await this.find(scope, customerId);
    if (!customer) throw customerNotFound();
    return customer;
  }

  /** The customer, or null when it does not exist in the scope's environment. */
  async find(scope: RequestScope, customerId: string): Promise<Customer | null> {
    if (!isRecordId(customerId)) return null;
    return this.db.stores.customers.findById(scope.environment, customerId);
  }

  /** Batch look-up for per-request loaders: one entry per id, null where absent. */
  async findMany(scope: RequestScope, customerIds: readonly string[]): Promise<(Customer | null)[]> {
    const valid = customerIds.filter(isRecordId);
    const found = valid.length > 0 ? await this.db.stores.customers.findByIds(scope.environment, valid) : [];
    const byId = new Map(found.map((customer) => [customer.customerId, customer]));
    return customerIds.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  async list(scope: RequestScope, page: PageRequest): Promise<Customer[]> {
    const after = page.after !== undefined && isRecordId(page.after) ? page.after : undefined;
    return this.db.stores.customers.list(scope.environment, { first: page.first, after });
  }

  /** Partial update of the contact fields; identity fields can never change. */
  async update(scope: RequestScope, customerId: string, input: unknown): Promise<Customer> {
    const forbidden = presentKeys(input, NON_UPDATABLE_CUSTOMER_FIELDS);
    if (forbidden.length > 0) throw fieldsNotUpdatable(forbidden, UPDATABLE_CUSTOMER_FIELDS);
    const changes = parseInput(updateCustomerSchema, input);
    if (!isRecordId(customerId)) throw customerNotFound();
    const updated = await this.db.stores.customers.update(scope.environment, customerId, changes);
    if (!updated) throw customerNotFound();
    return updated;
  }

  /**
   * Irreversible; refused while any account is linked. The row lock taken here conflicts with the
   * one account creation takes on its customers, so a customer can never be deleted while an account
   * is being linked to it.
   */
  async delete(scope: RequestScope, customerId: string): Promise<void> {
    if (!isRecordId(customerId)) throw customerNotFound();
    await this.db.transaction(async ({ customers }) => {
      const exists = await customers.lockForDeletion(scope.environment, customerId);
      if (!exists) throw customerNotFound();
      const linked = await customers.countLinkedAccounts(scope.environment, customerId);
      if (linked > 0) throw customerHasAccounts(linked);
      await customers.delete(scope.environment, customerId);
    });
  }
}
