import { auditEventFor } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import {
  beneficialOwnerExists,
  beneficialOwnerLimit,
  beneficialOwnerNotFound,
  customerNotFound,
  notABusiness,
  ownerIsTheBusiness,
  ownerNotAnIndividual,
  ownershipOver100,
  referencedCustomersNotFound,
} from '../../domain/errors.js';
import { isRecordId } from '../../domain/ids.js';
import { parseInput } from '../../domain/validation.js';
import { addBeneficialOwnerSchema, BENEFICIAL_OWNER_LIMITS, PRONGS } from './beneficial-owner.schemas.js';
import type { BeneficialOwner, BeneficialOwnerStore, BusinessOwnership } from './ports.js';

/**
 * The beneficial owners of a business customer (docs/adr/0094; the FinCEN CDD rule, 31 CFR 1010.230): each
 * individual owning 25 % or more (OWNERSHIP, with a percentage) and an individual with significant control
 * (CONTROL). Every refusal is a coded DomainError and changes nothing; every change is audited with its event.
 */
export class BeneficialOwnerService {
  constructor(private readonly stores: { beneficialOwners: BeneficialOwnerStore }) {}

  /** CUSTOMER_NOT_FOUND for no such customer, NOT_A_BUSINESS for a person. */
  async list(caller: Caller, businessId: string): Promise<BeneficialOwner[]> {
    authorize(caller, 'customers:read');
    if (!isRecordId(businessId)) throw customerNotFound();
    const owners = await this.stores.beneficialOwners.list(caller.environment, businessId.toLowerCase());
    if (owners === null) throw customerNotFound();
    if (owners === 'INDIVIDUAL') throw notABusiness();
    return owners;
  }

  /**
   * The owners of many businesses at once (GraphQL's `Customer.beneficialOwners`, batched): in `businessIds`
   * order, [] for an id that is no business's or no id at all. One statement.
   */
  async listOfMany(caller: Caller, businessIds: readonly string[]): Promise<BeneficialOwner[][]> {
    authorize(caller, 'customers:read');
    const ids = businessIds.filter(isRecordId).map((id) => id.toLowerCase());
    const owners = ids.length > 0 ? await this.stores.beneficialOwners.listOfMany(caller.environment, ids) : [];
    const byId = new Map(ids.map((id, i) => [id, owners[i]!]));
    return businessIds.map((id) => (isRecordId(id) ? (byId.get(id.toLowerCase()) ?? []) : []));
  }

  /**
   * The businesses each individual owns or controls (GraphQL's `Customer.beneficialOwnerOf`, batched): in
   * `ownerIds` order, oldest first, at most BENEFICIAL_OWNER_LIMITS.ownershipsListed each; [] for a business
   * (only individuals are owners) and for an id that is none. One statement.
   */
  async ownershipsOfMany(caller: Caller, ownerIds: readonly string[]): Promise<BusinessOwnership[][]> {
    authorize(caller, 'customers:read');
    const ids = ownerIds.filter(isRecordId).map((id) => id.toLowerCase());
    const ownerships =
      ids.length > 0
        ? await this.stores.beneficialOwners.ownershipsOfMany(
            caller.environment,
            ids,
            BENEFICIAL_OWNER_LIMITS.ownershipsListed,
          )
        : [];
    const byId = new Map(ids.map((id, i) => [id, ownerships[i]!]));
    return ownerIds.map((id) => (isRecordId(id) ? (byId.get(id.toLowerCase()) ?? []) : []));
  }

  /**
   * Refusals, in order: VALIDATION_FAILED (the body), CUSTOMER_NOT_FOUND (404: the path's customer),
   * NOT_A_BUSINESS, OWNER_IS_THE_BUSINESS, CUSTOMER_NOT_FOUND (422: the body's customer), OWNER_NOT_AN_INDIVIDUAL,
   * BENEFICIAL_OWNER_EXISTS, BENEFICIAL_OWNER_LIMIT, OWNERSHIP_OVER_100 (the sum is exact: numeric in PostgreSQL).
   */
  async add(caller: Caller, businessId: string, input: unknown): Promise<BeneficialOwner> {
    authorize(caller, 'customers:write');
    const valid = parseInput(addBeneficialOwnerSchema, input);
    if (!isRecordId(businessId)) throw customerNotFound();
    const business = businessId.toLowerCase();
    const ownerId = valid.customerId.toLowerCase();
    const prongs = PRONGS.filter((prong) => valid.prongs.includes(prong));
    const audit = auditEventFor(caller, {
      operation: 'customer.beneficial_owner.add',
      resourceType: 'customer',
      resourceId: business,
      changedFields: ['beneficialOwners'],
    });
    const addition = isRecordId(ownerId)
      ? await this.stores.beneficialOwners.add(
          caller.environment,
          business,
          {
            ownerCustomerId: ownerId,
            prongs,
            ownershipPercentage: valid.ownershipPercentage ?? null,
            title: valid.title ?? null,
          },
          BENEFICIAL_OWNER_LIMITS.owners,
          { audit },
        )
      : ({ outcome: 'owner-not-found' } as const);
    switch (addition.outcome) {
      case 'added':
        return addition.owner;
      case 'business-not-found':
        throw customerNotFound();
      case 'not-a-business':
        throw notABusiness();
      case 'owner-not-found':
        // The business exists (or the id was no id at all): the body names no customer.
        if (ownerId === business) throw ownerIsTheBusiness();
        throw referencedCustomersNotFound([valid.customerId], 'customerId');
      case 'owner-not-an-individual':
        if (ownerId === business) throw ownerIsTheBusiness();
        throw ownerNotAnIndividual();
      case 'exists':
        throw beneficialOwnerExists();
      case 'limit':
        throw beneficialOwnerLimit(BENEFICIAL_OWNER_LIMITS.owners);
      case 'over-100':
        throw ownershipOver100(addition.owned);
    }
  }

  /** CUSTOMER_NOT_FOUND, NOT_A_BUSINESS, BENEFICIAL_OWNER_NOT_FOUND; otherwise removed, audited, its event written. */
  async remove(caller: Caller, businessId: string, ownerCustomerId: string): Promise<void> {
    authorize(caller, 'customers:write');
    if (!isRecordId(businessId)) throw customerNotFound();
    const business = businessId.toLowerCase();
    const audit = auditEventFor(caller, {
      operation: 'customer.beneficial_owner.remove',
      resourceType: 'customer',
      resourceId: business,
      changedFields: ['beneficialOwners'],
    });
    const removal = isRecordId(ownerCustomerId)
      ? await this.stores.beneficialOwners.remove(caller.environment, business, ownerCustomerId.toLowerCase(), {
          audit,
        })
      : null;
    if (removal === null) {
      // No owner has an id that is no id; the business's own existence and type still decide the code.
      const owners = await this.stores.beneficialOwners.list(caller.environment, business);
      if (owners === null) throw customerNotFound();
      if (owners === 'INDIVIDUAL') throw notABusiness();
      throw beneficialOwnerNotFound();
    }
    if (removal.outcome === 'business-not-found') throw customerNotFound();
    if (removal.outcome === 'not-a-business') throw notABusiness();
    if (removal.outcome === 'not-found') throw beneficialOwnerNotFound();
  }
}
