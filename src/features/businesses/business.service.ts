import { auditEventFor } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import {
  customerNotFound,
  fieldsNotForCustomerType,
  fieldsNotUpdatable,
  preconditionFailed,
} from '../../domain/errors.js';
import { isRecordId, newId } from '../../domain/ids.js';
import type { PersonalDataProtector } from '../../domain/personal-data.js';
import { parseInput, presentKeys } from '../../domain/validation.js';
import { expectedVersions, type VersionCondition } from '../../domain/versions.js';
import type { CreateOptions, Creation, IdempotentCreation } from '../idempotency/index.js';
import {
  type BusinessCustomers,
  type Customer,
  type CustomerService,
  PERSON_FIELDS,
  phoneSearchKeys,
} from '../customers/index.js';
import {
  createBusinessSchema,
  NON_UPDATABLE_BUSINESS_FIELDS,
  UPDATABLE_BUSINESS_FIELDS,
  updateBusinessSchema,
} from './business.schemas.js';
import type { BusinessStore, NewBusinessRecord } from './ports.js';

/**
 * Business customers (docs/adr/0090): a customer that is an entity. Its creation and updates are its own; it is
 * read, listed, searched and deleted as every customer is, by the customer service (which reads its profile).
 * Its tax id is sealed as an SSN is (same key ring, key id stored, blind index per environment) and never read back.
 */
export class BusinessService implements BusinessCustomers {
  constructor(
    private readonly stores: { businesses: BusinessStore },
    private readonly customers: CustomerService,
    private readonly protector: PersonalDataProtector,
    private readonly creation: IdempotentCreation,
  ) {}

  /**
   * Refusals, each before anything is written: a person's field (FIELD_NOT_FOR_CUSTOMER_TYPE, by name), then the
   * input's rules (VALIDATION_FAILED); EXTERNAL_ID_TAKEN when another customer has the externalId, then
   * TAX_ID_ALREADY_EXISTS when a business has the tax id (audited as `customer.create.refused`, as an SSN's).
   */
  async create(caller: Caller, input: unknown, options?: CreateOptions): Promise<Creation<Customer>> {
    authorize(caller, 'customers:write');
    const personFields = presentKeys(input, PERSON_FIELDS);
    if (personFields.length > 0) throw fieldsNotForCustomerType(personFields, 'BUSINESS');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(createBusinessSchema, input);
    const customerId = newId();
    const profile = {
      legalName: valid.legalName,
      doingBusinessAs: valid.doingBusinessAs ?? null,
      entityType: valid.entityType,
      formationDate: valid.formationDate,
      formationState: valid.formationState ?? null,
      formationCountry: valid.formationCountry,
      industry: valid.industry ?? null,
      website: valid.website ?? null,
    };
    const record: NewBusinessRecord = {
      id: customerId,
      environment: caller.environment,
      sealed: this.protector.sealTaxId({ environment: caller.environment, customerId }, valid.taxId),
      profile,
      emails: valid.emails,
      phoneNumbers: valid.phoneNumbers,
      addresses: valid.addresses,
      phoneSearchKeys: phoneSearchKeys(valid.phoneNumbers),
      externalId: typeof valid.externalId === 'string' ? valid.externalId : undefined,
      metadata: valid.metadata ?? undefined,
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
    const taxIdRefusalAudit = auditEventFor(caller, {
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
      (idempotency) => this.stores.businesses.insert(record, { audit, idempotency, taxIdRefusalAudit }),
    );
    const stored = await this.customers.afterWrite(caller, created.value.customerId);
    if (!stored) throw customerNotFound();
    return { value: stored, replayed: created.replayed };
  }

  /**
   * A BUSINESS customer's update: doingBusinessAs, website, industry, the contact lists, externalId and metadata.
   * Its identity (legalName, taxId, entityType, formation) is refused as a person's is (FIELD_NOT_UPDATABLE); a
   * person's field by name (FIELD_NOT_FOR_CUSTOMER_TYPE). With a condition, as a person's (PRECONDITION_FAILED).
   */
  async update(caller: Caller, customerId: string, input: unknown, condition?: VersionCondition): Promise<Customer> {
    authorize(caller, 'customers:write');
    const forbidden = presentKeys(input, NON_UPDATABLE_BUSINESS_FIELDS);
    if (forbidden.length > 0) throw fieldsNotUpdatable(forbidden, UPDATABLE_BUSINESS_FIELDS);
    const personFields = presentKeys(input, PERSON_FIELDS);
    if (personFields.length > 0) throw fieldsNotForCustomerType(personFields, 'BUSINESS');
    const changes = parseInput(updateBusinessSchema, input);
    if (!isRecordId(customerId)) throw customerNotFound();
    const id = customerId.toLowerCase();
    const changedFields = Object.keys(changes).filter((field) => changes[field as keyof typeof changes] !== undefined);
    const audit = auditEventFor(caller, {
      operation: 'customer.update',
      resourceType: 'customer',
      resourceId: id,
      changedFields,
    });
    const withKeys =
      changes.phoneNumbers === undefined
        ? changes
        : { ...changes, phoneSearchKeys: phoneSearchKeys(changes.phoneNumbers) };
    const update = await this.stores.businesses.update(
      caller.environment,
      id,
      withKeys,
      { audit },
      expectedVersions(condition),
    );
    if (update.outcome === 'not-found') throw customerNotFound();
    if (update.outcome === 'stale') throw preconditionFailed();
    // Read as every customer is (with its profile), after the write: the version the write moved.
    const updated = await this.customers.afterWrite(caller, id);
    if (!updated) throw customerNotFound();
    return updated;
  }
}
