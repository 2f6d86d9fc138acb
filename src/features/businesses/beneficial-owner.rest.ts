import { z } from 'zod';
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
import { answerShape } from '../../domain/answer-shape.js';
import type { Caller } from '../../domain/caller.js';
import { recordId } from '../../presenters/record-id.js';
import { DELETED, failure } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { EXAMPLE_IDS } from '../../rest/operations/examples.js';
import { addBeneficialOwnerSchema, BENEFICIAL_OWNER_LIMITS, PRONGS } from './beneficial-owner.schemas.js';
import type { BeneficialOwner } from './ports.js';

export const beneficialOwnerDataSchema = z
  .strictObject({
    customerId: recordId.describe('The owner: an INDIVIDUAL customer.'),
    prongs: z.array(z.enum(PRONGS)).describe('OWNERSHIP (25 % or more) and/or CONTROL (significant control).'),
    ownershipPercentage: z
      .string()
      .nullable()
      .describe('The share owned, a decimal string with two places (e.g. "25.00"); null without OWNERSHIP.'),
    title: z.string().nullable().describe('E.g. CEO; null when not given.'),
    addedAt: z.iso.datetime().describe('When the owner was added, ISO 8601 UTC.'),
  })
  .describe('A beneficial owner of a business customer (FinCEN CDD rule, 31 CFR 1010.230).');

/** An addition's answer: the owner with `customers:read`, its id alone without (src/domain/answer-shape.ts). */
export const beneficialOwnerAnswerDataSchema = z
  .xor([
    beneficialOwnerDataSchema,
    z
      .strictObject({ customerId: recordId })
      .describe(
        'The owner added, for a token without `customers:read`: its id only. Read the list with `customers:read`.',
      ),
  ])
  .describe('The owner as the list shows it when the token holds `customers:read`; otherwise only its id.');

export const beneficialOwnersDataSchema = z
  .strictObject({
    beneficialOwners: z.array(beneficialOwnerDataSchema).describe('By addedAt, then customerId.'),
  })
  .describe("A business's beneficial owners.");

export const presentBeneficialOwner = (owner: BeneficialOwner): z.infer<typeof beneficialOwnerDataSchema> => ({
  customerId: owner.customerId,
  prongs: owner.prongs as (typeof PRONGS)[number][],
  ownershipPercentage: owner.ownershipPercentage,
  title: owner.title,
  addedAt: owner.addedAt,
});

export const beneficialOwnerAnswer = (
  caller: Caller,
  owner: BeneficialOwner,
): z.infer<typeof beneficialOwnerAnswerDataSchema> =>
  answerShape(caller, 'customer') === 'full' ? presentBeneficialOwner(owner) : { customerId: owner.customerId };

export const presentBeneficialOwners = (owners: readonly BeneficialOwner[]) => ({
  beneficialOwners: owners.map(presentBeneficialOwner),
});

const notFound = failure(
  'CUSTOMER_NOT_FOUND',
  'No customer with this id in this environment (an id that is not a UUID cannot name one).',
  customerNotFound(),
);
const notABusinessFailure = failure(
  'NOT_A_BUSINESS',
  'The customer is an INDIVIDUAL: only a BUSINESS has beneficial owners; nothing changes.',
  notABusiness(),
);

const PATH = '/:environment/customer/:customerId/beneficial-owner';

/** The beneficial owners of a business customer (docs/adr/0094), tagged Customers. */
export const BENEFICIAL_OWNERS_ROUTES = [
  {
    operationId: 'listBeneficialOwners',
    method: 'GET',
    path: PATH,
    family: 'customer',
    tag: 'Customers',
    summary: "List a business's beneficial owners",
    description: `Not in the contract. The individuals who own 25 % or more of the business (OWNERSHIP) or control it (CONTROL), by addedAt then customerId; at most ${BENEFICIAL_OWNER_LIMITS.owners}.`,
    scope: 'customers:read',
    success: {
      status: 200,
      description: 'The beneficial owners.',
      data: beneficialOwnersDataSchema,
      component: 'BeneficialOwners',
    },
    failures: [notFound, notABusinessFailure],
  },
  {
    operationId: 'addBeneficialOwner',
    method: 'POST',
    path: PATH,
    family: 'customer',
    tag: 'Customers',
    summary: 'Add a beneficial owner to a business',
    description:
      'Not in the contract. `customerId`: an INDIVIDUAL customer of the environment, not yet an owner of this business; `prongs`: OWNERSHIP and/or CONTROL, each once; ' +
      '`ownershipPercentage`: a decimal string from 0 to 100 with at most two places, required with OWNERSHIP and refused without it; `title` (optional, at most 100 characters). ' +
      `The business's percentages sum to at most 100 (exact decimals; concurrent additions take turns); at most ${BENEFICIAL_OWNER_LIMITS.owners} owners. ` +
      'Audited (`customer.beneficial_owner.add`) with the event `customer.beneficial_owner_added`. Answers the owner as the list shows it.',
    scope: 'customers:write',
    withoutIdempotencyKey:
      'a repeat changes nothing (409 BENEFICIAL_OWNER_EXISTS): after a lost answer, the list tells whether the owner was added',
    requestBody: {
      schema: addBeneficialOwnerSchema,
      component: 'AddBeneficialOwnerRequest',
      example: {
        customerId: EXAMPLE_IDS.otherCustomerId,
        prongs: ['OWNERSHIP', 'CONTROL'],
        ownershipPercentage: '40',
        title: 'CEO',
      },
    },
    success: {
      status: 201,
      description: 'Added: the owner (its id alone without `customers:read`).',
      data: beneficialOwnerAnswerDataSchema,
      component: 'BeneficialOwnerAnswer',
    },
    failures: [
      notFound,
      notABusinessFailure,
      failure('OWNER_IS_THE_BUSINESS', 'The body names the business itself; nothing changes.', ownerIsTheBusiness()),
      failure(
        'CUSTOMER_NOT_FOUND',
        "The body's customerId names no customer of this environment; nothing changes.",
        referencedCustomersNotFound([EXAMPLE_IDS.otherCustomerId], 'customerId'),
      ),
      failure('OWNER_NOT_AN_INDIVIDUAL', "The body's customer is a BUSINESS; nothing changes.", ownerNotAnIndividual()),
      failure(
        'BENEFICIAL_OWNER_EXISTS',
        'The customer is already an owner of this business; nothing changes.',
        beneficialOwnerExists(),
      ),
      failure(
        'BENEFICIAL_OWNER_LIMIT',
        `The business has ${BENEFICIAL_OWNER_LIMITS.owners} owners; nothing changes.`,
        beneficialOwnerLimit(BENEFICIAL_OWNER_LIMITS.owners),
      ),
      failure(
        'OWNERSHIP_OVER_100',
        "The business's percentages would sum to more than 100; nothing changes.",
        ownershipOver100('80.00'),
      ),
    ],
  },
  {
    operationId: 'removeBeneficialOwner',
    method: 'DELETE',
    path: `${PATH}/:ownerCustomerId`,
    family: 'customer',
    tag: 'Customers',
    summary: 'Remove a beneficial owner from a business',
    description:
      'Not in the contract. Audited (`customer.beneficial_owner.remove`) with the event `customer.beneficial_owner_removed` (the owner as it was).',
    scope: 'customers:write',
    success: DELETED,
    failures: [
      notFound,
      notABusinessFailure,
      failure(
        'BENEFICIAL_OWNER_NOT_FOUND',
        'The customer is not an owner of this business; nothing changes.',
        beneficialOwnerNotFound(),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
