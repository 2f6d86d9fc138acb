import { auditEventFor, type NewAuditEvent } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import {
  customerHasAccounts,
  customerIsABeneficialOwner,
  customerNotFound,
  fieldsNotForCustomerType,
  fieldsNotUpdatable,
  preconditionFailed,
  validationFailed,
} from '../../domain/errors.js';
import type { CreateOptions, Creation, IdempotentCreation } from '../idempotency/index.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { type Page, pageOf, type PageQuery, type PageRequest, readPage } from '../../domain/pagination.js';
import type { PersonalDataProtector } from '../../domain/personal-data.js';
import type { AccessScope, Caller } from '../../domain/caller.js';
import { parseInput, presentKeys } from '../../domain/validation.js';
import {
  type CustomerFilter,
  customerFilterOf,
  type CustomerFilterInput,
  customerFilterSchema,
  customerSearchFilterSchema,
  type CustomerSearchInput,
} from './customer-search.js';
import type { Customer } from './customer.js';
import { phoneSearchKeys } from './phone-numbers.js';
import type { BusinessCustomers, BusinessProfileReader, CustomerStore, NewCustomerRecord } from './ports.js';
import { expectedVersions, type VersionCondition } from '../../domain/versions.js';
import {
  BUSINESS_FIELDS,
  createCustomerSchema,
  NON_UPDATABLE_CUSTOMER_FIELDS,
  UPDATABLE_CUSTOMER_FIELDS,
  updateCustomerSchema,
} from './customer.schemas.js';

/**
 * The scope a search needs: `customers:ssn_search` when its input names an SSN (any value but null, even one
 * the validation then refuses: the refusal must not tell an unauthorized caller anything), else `customers:read`.
 */
export function searchScope(input: unknown): AccessScope {
  const named = (field: string) => {
    const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[field] : undefined;
    return value !== undefined && value !== null;
  };
  // A business's tax id is searched exactly as an SSN is (docs/adr/0090).
  return named('socialSecurityNumber') || named('taxId') ? 'customers:ssn_search' : 'customers:read';
}

/**
 * A `verificationStatus` filter tells which customers are in a verification status: verification data, which needs
 * `verification:read` besides the list's own scope (docs/adr/0101), as an answer never shows more than its reader
 * could read directly. Decided on the input as sent (any value but null), before it is validated.
 */
function authorizeVerificationFilter(caller: Caller, input: unknown): void {
  const status =
    typeof input === 'object' && input !== null ? (input as Record<string, unknown>).verificationStatus : undefined;
  if (status !== undefined && status !== null) authorize(caller, 'verification:read');
}

const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'];

/** The input's `customerType`, when it is an object that has one. */
const customerTypeOf = (input: unknown): unknown =>
  typeof input === 'object' && input !== null ? (input as Record<string, unknown>).customerType : undefined;

/** Every customer rule of the spec. REST and GraphQL call these methods and only translate. */
export class CustomerService {
  private businesses: BusinessCustomers | undefined;

  constructor(
    private readonly stores: { customers: CustomerStore; businessProfiles?: BusinessProfileReader },
    private readonly protector: PersonalDataProtector,
    private readonly creation: IdempotentCreation,
  ) {}

  /** The business customers' writes (the composition root hands them over once both services exist). */
  handBusinessesTo(businesses: BusinessCustomers): void {
    this.businesses = businesses;
  }

  /**
   * The customers with their business profiles: one more query, by ids, only when a BUSINESS row is among them.
   * Also for the customers a link walk read (LinkService), so a business never reads as an empty person.
   */
  async withProfiles(environment: string, customers: Customer[]): Promise<Customer[]> {
    const ids = customers.filter((customer) => customer.customerType === 'BUSINESS').map((c) => c.customerId);
    if (ids.length === 0 || !this.stores.businessProfiles) return customers;
    const profiles = await this.stores.businessProfiles.profilesByIds(environment, ids);
    return customers.map((customer) => {
      const business = profiles.get(customer.customerId);
      return business === undefined ? customer : { ...customer, business };
    });
  }

  private async withProfile(environment: string, customer: Customer | null): Promise<Customer | null> {
    if (customer === null || customer.customerType !== 'BUSINESS') return customer;
    const [withProfile] = await this.withProfiles(environment, [customer]);
    return withProfile ?? null;
  }

  /**
   * Validates and stores a new customer (no accounts, no restrictions) and answers it. With an idempotency
   * key, a retry of the same request answers the customer the first one created, marked as replayed. The
   * key's record keeps the customer's id only, no copy of its personal data outside its own row: a replay
   * reads the customer as it is now (CUSTOMER_NOT_FOUND if it has been deleted since).
   *
   * Refusals, in this order whatever index the database checks first: EXTERNAL_ID_TAKEN when another customer
   * has the externalId (the SSN is not consulted for the answer), then CUSTOMER_ALREADY_EXISTS when a customer
   * has the SSN, audited as `customer.create.refused` (the surfaces charge it to the SSN search budget:
   * src/http/rate-limit.ts, chargeSsnRefusal). Nothing else is written on either refusal.
   */
  async create(caller: Caller, input: unknown, options?: CreateOptions): Promise<Creation<Customer>> {
    authorize(caller, 'customers:write');
    const customerType = customerTypeOf(input);
    if (customerType === 'BUSINESS' && this.businesses) return this.businesses.create(caller, input, options);
    if (customerType !== undefined && !CUSTOMER_TYPES.includes(customerType as string))
      throw validationFailed([
        { field: 'customerType', code: 'INVALID_VALUE', message: `Must be one of ${CUSTOMER_TYPES.join(', ')}.` },
      ]);
    const businessFields = presentKeys(input, BUSINESS_FIELDS);
    if (businessFields.length > 0) throw fieldsNotForCustomerType(businessFields, 'INDIVIDUAL');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(createCustomerSchema, withoutIndividualType(input));
    const customerId = newId();
    const customer: Customer = {
      customerId,
      accountIds: [],
      preferredName: valid.preferredName,
      firstName: valid.firstName,
      middleName: valid.middleName,
      lastName: valid.lastName,
      dateOfBirth: valid.dateOfBirth,
      emails: valid.emails,
      phoneNumbers: valid.phoneNumbers,
      addresses: valid.addresses,
      version: 1,
      ...(typeof valid.externalId === 'string' && { externalId: valid.externalId }),
      ...(valid.metadata && { metadata: valid.metadata }),
    };
    const { accountIds: _none, customerId: id, version: _first, ...fields } = customer;
    const record: NewCustomerRecord = {
      ...fields,
      id,
      phoneSearchKeys: phoneSearchKeys(valid.phoneNumbers),
      environment: caller.environment,
      sealed: this.protector.seal(
        { environment: caller.environment, customerId },
        { socialSecurityNumber: valid.socialSecurityNumber, documentLocatorNumber: valid.documentLocatorNumber },
      ),
    };
    const changedFields = Object.keys(valid).filter(
      (field) => valid[field as keyof typeof valid] !== null && valid[field as keyof typeof valid] !== undefined,
    );
    const audit = auditEventFor(caller, {
      operation: 'customer.create',
      resourceType: 'customer',
      resourceId: customerId,
      changedFields,
      idempotencyKey,
    });
    // A refusal because the SSN is on file answers "this person is a customer": audited like a search by SSN,
    // under the id the refused customer would have had (never the existing customer's, never the number).
    const ssnRefusalAudit = auditEventFor(caller, {
      operation: 'customer.create.refused',
      resourceType: 'customer',
      resourceId: customerId,
      changedFields,
      idempotencyKey,
    });
    const created = await this.creation.run(
      caller,
      'customer.create',
      valid,
      idempotencyKey,
      { customerId },
      (idempotency) => this.stores.customers.insert(record, { audit, idempotency, ssnRefusalAudit }),
    );
    if (!created.replayed) return { value: customer, replayed: false };
    const stored = await this.stores.customers.findById(caller.environment, created.value.customerId);
    if (!stored) throw customerNotFound();
    return { value: (await this.withProfile(caller.environment, stored))!, replayed: true };
  }

  async get(caller: Caller, customerId: string): Promise<Customer> {
    const customer = await this.findById(caller, customerId);
    if (!customer) throw customerNotFound();
    return customer;
  }

  /** The customer, or null when it does not exist in the caller's environment. */
  async findById(caller: Caller, customerId: string): Promise<Customer | null> {
    authorize(caller, 'customers:read');
    if (!isRecordId(customerId)) return null;
    return this.withProfile(caller.environment, await this.stores.customers.findById(caller.environment, customerId));
  }

  /**
   * The customer as a write just left it (with its profile), for that write's answer: needs `customers:write`,
   * not `customers:read` (the surfaces shape the answer by the caller's read scope). Null when it is gone.
   */
  async afterWrite(caller: Caller, customerId: string): Promise<Customer | null> {
    authorize(caller, 'customers:write');
    if (!isRecordId(customerId)) return null;
    const [customer] = await this.stores.customers.findByIds(caller.environment, [customerId.toLowerCase()]);
    return this.withProfile(caller.environment, customer ?? null);
  }

  /** Batch look-up for per-request loaders: one entry per id, null where absent. */
  async findMany(caller: Caller, customerIds: readonly string[]): Promise<(Customer | null)[]> {
    authorize(caller, 'customers:read');
    const valid = customerIds.filter(isRecordId);
    const found =
      valid.length > 0
        ? await this.withProfiles(caller.environment, await this.stores.customers.findByIds(caller.environment, valid))
        : [];
    const byId = new Map(found.map((customer) => [customer.customerId, customer]));
    return customerIds.map((id) => byId.get(id.toLowerCase()) ?? null);
  }

  /**
   * The customers matching every given filter (customer-search.ts), in id order (creation order; with a name
   * filter, in that name's order), a page at a time: REST `GET /{environment}/customer` (its query string parsed
   * by customer.rest.ts) and GraphQL `customers(filter, first, after)`. The filter is validated here (lengths,
   * phone numbers, instants, metadata): VALIDATION_FAILED; a page outside 1–100, VALIDATION_FAILED (`first`).
   * No SSN here: it is a search of its own (`search`).
   */
  async find(caller: Caller, filter: CustomerFilterInput = {}, page: PageQuery = {}): Promise<Page<Customer>> {
    authorize(caller, 'customers:read');
    authorizeVerificationFilter(caller, filter);
    const valid = parseInput(customerFilterSchema, filter);
    return this.page(caller, customerFilterOf(valid), pageOf(page));
  }

  /**
   * REST `POST /{environment}/customer/search` and GraphQL `searchCustomers`: the filters and an SSN. A search
   * by SSN ("is this person already on file?") is its own operation: it needs `customers:ssn_search` (and only
   * it), a search without one `customers:read`, decided before anything is validated. It is audited in the
   * search's own statement: who, when, which filters, how many matched; never the SSN.
   */
  async search(caller: Caller, filter: CustomerSearchInput, page: PageQuery = {}): Promise<Page<Customer>> {
    authorize(caller, searchScope(filter));
    authorizeVerificationFilter(caller, filter);
    const valid = parseInput(customerSearchFilterSchema, filter ?? {});
    const request = pageOf(page);
    const { socialSecurityNumber, taxId, ...filters } = valid;
    const blindIndex =
      socialSecurityNumber === undefined
        ? undefined
        : this.protector.blindIndex(caller.environment, socialSecurityNumber);
    const taxIdBlindIndex = taxId === undefined ? undefined : this.protector.taxIdBlindIndex(caller.environment, taxId);
    const audit =
      blindIndex === undefined && taxIdBlindIndex === undefined
        ? undefined
        : auditEventFor(caller, {
            operation: 'customer.search',
            resourceType: 'customer',
            resourceId: newId(),
            changedFields: Object.keys(valid),
          });
    return this.page(caller, customerFilterOf(filters, blindIndex, taxIdBlindIndex), request, audit);
  }

  private async page(
    caller: Caller,
    filter: CustomerFilter,
    page: PageRequest,
    audit?: NewAuditEvent,
  ): Promise<Page<Customer>> {
    // Ids are UUIDs: a cursor that is none matches nothing after it.
    if (page.after !== undefined && !isRecordId(page.after)) return { items: [], nextAfter: null };
    const { environment } = caller;
    // Without a filter, the list of every customer in id order (its own statement, the one `customers` always read).
    const unfiltered = Object.keys(filter).length === 0;
    const search = (request: PageRequest) =>
      audit !== undefined
        ? this.stores.customers.auditedSearch(environment, filter, request, audit)
        : unfiltered
          ? this.stores.customers.list(environment, request)
          : this.stores.customers.search(environment, filter, request);
    const read = await readPage(
      { first: page.first, after: page.after?.toLowerCase() },
      search,
      (customer) => customer.customerId,
    );
    return { ...read, items: await this.withProfiles(environment, read.items) };
  }

  /**
   * Partial update of the contact fields; identity fields can never change. With a condition, only while the
   * customer's version is one it names (compared in the update's own statement): PRECONDITION_FAILED otherwise.
   */
  async update(caller: Caller, customerId: string, input: unknown, condition?: VersionCondition): Promise<Customer> {
    authorize(caller, 'customers:write');
    // A field a person's update cannot take may be a business's: only then is the customer's type looked up.
    const unusual =
      typeof input === 'object' && input !== null
        ? Object.keys(input).filter((key) => !(UPDATABLE_CUSTOMER_FIELDS as readonly string[]).includes(key))
        : [];
    if (unusual.length > 0 && this.businesses && isRecordId(customerId)) {
      const type = await this.stores.customers.typeOf(caller.environment, customerId.toLowerCase());
      if (type === 'BUSINESS') return this.businesses.update(caller, customerId, input, condition);
      const businessFields = presentKeys(input, [...BUSINESS_FIELDS, 'customerType']);
      if (type === 'INDIVIDUAL' && businessFields.includes('customerType'))
        throw fieldsNotUpdatable(['customerType'], UPDATABLE_CUSTOMER_FIELDS);
      if (type === 'INDIVIDUAL' && businessFields.length > 0)
        throw fieldsNotForCustomerType(businessFields, 'INDIVIDUAL');
    }
    const forbidden = presentKeys(input, NON_UPDATABLE_CUSTOMER_FIELDS);
    if (forbidden.length > 0) throw fieldsNotUpdatable(forbidden, UPDATABLE_CUSTOMER_FIELDS);
    const changes = parseInput(updateCustomerSchema, input);
    if (!isRecordId(customerId)) throw customerNotFound();
    const changedFields = Object.keys(changes).filter((field) => changes[field as keyof typeof changes] !== undefined);
    const audit = auditEventFor(caller, {
      operation: 'customer.update',
      resourceType: 'customer',
      resourceId: customerId,
      changedFields,
    });
    const withKeys =
      changes.phoneNumbers === undefined
        ? changes
        : { ...changes, phoneSearchKeys: phoneSearchKeys(changes.phoneNumbers) };
    const update = await this.stores.customers.update(
      caller.environment,
      customerId,
      withKeys,
      { audit },
      expectedVersions(condition),
    );
    if (update.outcome === 'business') {
      if (!this.businesses) throw customerNotFound();
      return this.businesses.update(caller, customerId, input, condition);
    }
    if (update.outcome === 'not-found') throw customerNotFound();
    if (update.outcome === 'stale') throw preconditionFailed();
    return update.customer;
  }

  /**
   * Irreversible; refused while any account is linked (CUSTOMER_HAS_ACCOUNTS), then while the customer is a
   * beneficial owner of a business (CUSTOMER_IS_A_BENEFICIAL_OWNER, docs/adr/0094). The database's foreign key decides, so a customer
   * can never be deleted while an account is being linked to it. With a condition, as for `update`.
   */
  async delete(caller: Caller, customerId: string, condition?: VersionCondition): Promise<void> {
    authorize(caller, 'customers:write');
    if (!isRecordId(customerId)) throw customerNotFound();
    const audit = auditEventFor(caller, {
      operation: 'customer.delete',
      resourceType: 'customer',
      resourceId: customerId,
      changedFields: [],
    });
    const deletion = await this.stores.customers.delete(
      caller.environment,
      customerId,
      { audit },
      expectedVersions(condition),
    );
    if (deletion.outcome === 'not-found') throw customerNotFound();
    if (deletion.outcome === 'stale') throw preconditionFailed();
    if (deletion.outcome === 'has-accounts') throw customerHasAccounts(deletion.linkedAccounts);
    if (deletion.outcome === 'is-beneficial-owner') throw customerIsABeneficialOwner(deletion.businesses);
  }
}

/** A person's creation may name its type: INDIVIDUAL, the default, which is not one of its fields. */
function withoutIndividualType(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || customerTypeOf(input) !== 'INDIVIDUAL') return input;
  const { customerType: _individual, ...rest } = input as Record<string, unknown>;
  return rest;
}
