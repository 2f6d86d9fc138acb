import { createCustomerSchema, UPDATABLE_CUSTOMER_FIELDS, updateCustomerSchema } from './customer.schemas.js';
import {
  customerAlreadyExists,
  customerHasAccounts,
  customerIsABeneficialOwner,
  customerNotFound,
  externalIdTaken,
  fieldsNotForCustomerType,
  taxIdAlreadyExists,
} from '../../domain/errors.js';
import {
  anyCustomerDataSchema,
  createdCustomerDataSchema,
  customerAnswerDataSchema,
  customerPageDataSchema,
} from './customer.presenter.js';
import {
  type CustomerFilterInput,
  customerListQuerySchema,
  customerSearchSchema,
  type CustomerSearchInput,
  SSN_QUERY_PARAMETERS,
  TAX_ID_QUERY_PARAMETERS,
} from './customer-search.js';
import { searchScope } from './customer.service.js';
import type { Caller } from '../../domain/caller.js';
import { authorize } from '../../domain/authorization.js';
import { validationFailed } from '../../domain/errors.js';
import { withMetadataFromQuery } from '../../domain/metadata.js';
import type { PageQuery } from '../../domain/pagination.js';
import { parseInput } from '../../domain/validation.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';
import { ssnSearchRateLimited } from '../../http/rate-limit.js';
import { EXAMPLE_CREATE_CUSTOMER, EXAMPLE_UPDATE_CUSTOMER } from '../../rest/operations/examples.js';
import { DELETED, failure, fieldNotUpdatableFailure, limitValidationFailure } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';

const externalIdTakenFailure = failure(
  'EXTERNAL_ID_TAKEN',
  'Another customer of this environment has this externalId; nothing changes.',
  externalIdTaken('customer'),
);
const customerNotFoundFailure = failure(
  'CUSTOMER_NOT_FOUND',
  'No customer with this id in this environment (an id that is not a UUID cannot name one).',
  customerNotFound(),
);

/**
 * `GET /{environment}/customer`: the query string as CustomerService.find's filter and page. An SSN is refused
 * here, never read: a URL lands in access logs and browser histories (POST it to the search).
 */
export function listCustomersQuery(
  caller: Caller,
  query: QueryString,
): { filter: CustomerFilterInput; page: PageQuery } {
  authorize(caller, 'customers:read');
  const inUrl = SSN_QUERY_PARAMETERS.filter((name) => query[name] !== undefined);
  if (inUrl.length > 0) {
    throw validationFailed(
      inUrl.map((field) => ({
        field,
        code: 'NOT_ALLOWED_IN_URL',
        message: 'A social security number never goes in a URL: POST it to /{environment}/customer/search.',
      })),
    );
  }
  const taxIdInUrl = TAX_ID_QUERY_PARAMETERS.filter((name) => query[name] !== undefined);
  if (taxIdInUrl.length > 0) {
    throw validationFailed(
      taxIdInUrl.map((field) => ({
        field,
        code: 'NOT_ALLOWED_IN_URL',
        message: 'A tax id never goes in a URL: POST it to /{environment}/customer/search.',
      })),
    );
  }
  // `metadata[key]=value`: Express's simple query parser leaves the brackets in the parameter's name.
  const { limit, after, ...filter } = parseQuery(
    caller,
    'customers:read',
    customerListQuerySchema,
    withMetadataFromQuery(query),
  );
  return { filter, page: { first: limit, after } };
}

/**
 * `POST /{environment}/customer/search`: the body as CustomerService.search's filters and page. The scope the
 * body needs (`customers:ssn_search` when it names an SSN) is checked before the body is validated.
 */
export function searchCustomersBody(caller: Caller, body: unknown): { filter: CustomerSearchInput; page: PageQuery } {
  authorize(caller, searchScope(body));
  const { limit, after, ...filter } = parseInput(customerSearchSchema, body ?? {});
  return { filter, page: { first: limit, after } };
}

/** The operations tagged Customers, in the order of the reference. */
export const CUSTOMERS_ROUTES = [
  {
    operationId: 'createCustomer',
    method: 'POST',
    path: '/:environment/customer',
    family: 'customer',
    tag: 'Customers',
    summary: 'Create a customer',
    description:
      'Enrols a customer with no accounts and no restrictions, and answers its id, which clients must store. ' +
      'The social security number and document locator number are stored encrypted and never returned. ' +
      'Not in the contract, optional: `externalId` (your own id for the customer, unique per environment) and `metadata` (your key-value pairs; never personal data). ' +
      'A business (not in the contract): `"customerType": "BUSINESS"` with `legalName`, `doingBusinessAs` (optional), `taxId` (for `formationCountry` US an EIN, NN-NNNNNNN or nine digits; otherwise 1–32 letters and digits; stored encrypted, never returned, unique per environment), ' +
      '`entityType` (CORPORATION, LLC, PARTNERSHIP, SOLE_PROPRIETORSHIP, NONPROFIT, TRUST), `formationDate` (YYYY-MM-DD, not in the future), `formationState` (optional), `formationCountry` (ISO 3166-1 alpha-2), `industry` (optional NAICS code, 2–6 digits), `website` (optional http(s) URL) and the contact lists; no person field (FIELD_NOT_FOR_CUSTOMER_TYPE).',
    scope: 'customers:write',
    requestBody: { schema: createCustomerSchema, component: 'CreateCustomerRequest', example: EXAMPLE_CREATE_CUSTOMER },
    success: {
      status: 201,
      description: 'Created. `Location` names the new customer.',
      data: createdCustomerDataSchema,
      component: 'CreatedCustomer',
    },
    versioned: 'tagged',
    failures: [
      failure(
        'CUSTOMER_ALREADY_EXISTS',
        'A customer with this social security number exists in this environment (with or without dashes), and no customer has the `externalId`. ' +
          'Nothing is created; the refusal is written to the audit trail (`customer.create.refused`: who, when, which fields; never the number or the existing customer) ' +
          "and spends a point of the token's SSN search budget (SSN_SEARCH_RATE_LIMIT_PER_MINUTE).",
        customerAlreadyExists(),
      ),
      failure(
        'EXTERNAL_ID_TAKEN',
        'Another customer of this environment has this externalId, whatever the social security number (it is not consulted); nothing is created.',
        externalIdTaken('customer'),
      ),
      failure(
        'TAX_ID_ALREADY_EXISTS',
        'A business with this tax id exists in this environment (an EIN with or without its dash), and no customer has the `externalId`. ' +
          'Nothing is created; the refusal is audited (`customer.create.refused`, never the tax id) and spends a point of the SSN search budget, as an SSN refusal does.',
        taxIdAlreadyExists(),
      ),
      failure(
        'FIELD_NOT_FOR_CUSTOMER_TYPE',
        "A field of the other kind of customer (a business's on a person, a person's on a business), named in `details`; nothing is created.",
        fieldsNotForCustomerType(['legalName'], 'INDIVIDUAL'),
      ),
      failure(
        'SSN_SEARCH_RATE_LIMITED',
        "Refused because the social security number is on file, when the token's searches by social security number this minute (SSN_SEARCH_RATE_LIMIT_PER_MINUTE, shared with the search) are spent: audited as `customer.create.refused`; retry after Retry-After.",
        ssnSearchRateLimited(42),
      ),
    ],
  },
  // Before getCustomer: `/customer/search` must be matched as itself, not as a customer id.
  {
    operationId: 'searchCustomers',
    method: 'POST',
    path: '/:environment/customer/search',
    family: 'customer',
    tag: 'Customers',
    summary: 'Search customers, by social security number too',
    description:
      'Not in the contract. The filters of `GET /{environment}/customer` and `socialSecurityNumber` (exact, through the blind index; never in a URL), in a JSON body; all given filters must hold. ' +
      "`taxId`: a business's tax id (exact, through its blind index; an EIN with or without its dash), searched exactly as an SSN is: the scope `customers:ssn_search`, audited, the same budget. " +
      'Each search by social security number is written to the audit trail (`customer.search`: who, when, which filters, how many matched; never the number). ' +
      'A search by social security number is its own operation: it needs the scope `customers:ssn_search` (alone; `customers:read` does not allow it), a search without one `customers:read`. ' +
      'Searches by social security number have their own per-token budget (SSN_SEARCH_RATE_LIMIT_PER_MINUTE, shared with GraphQL) on top of the request budget. ' +
      "Answers a page of customers in id order, or in name order with a name filter (`limit` 1–100, default 20; `after`: the previous page's `nextAfter`). A read: it takes no Idempotency-Key.",
    scope: 'customers:read',
    ssnScope: 'customers:ssn_search',
    naturallyIdempotent: true,
    requestBody: {
      schema: customerSearchSchema,
      component: 'CustomerSearchRequest',
      example: { socialSecurityNumber: '123-45-6789', lastName: 'Mül' },
    },
    success: {
      status: 200,
      description: 'A page of customers.',
      data: customerPageDataSchema,
      component: 'CustomerPage',
    },
    failures: [
      failure(
        'SSN_SEARCH_RATE_LIMITED',
        "The token's searches by social security number this minute (SSN_SEARCH_RATE_LIMIT_PER_MINUTE) are spent; nothing is searched or audited; retry after Retry-After. Other requests still pass.",
        ssnSearchRateLimited(42),
      ),
    ],
  },
  {
    operationId: 'listCustomers',
    method: 'GET',
    path: '/:environment/customer',
    family: 'customer',
    tag: 'Customers',
    summary: 'List and filter customers',
    description:
      "`customerType`: INDIVIDUAL or BUSINESS; `legalName`: a business's legal name, a prefix, case- and accent-insensitive. A tax id is refused here as an SSN is (`NOT_ALLOWED_IN_URL`). " +
      "Not in the contract. The customers matching every given filter, in id order (with a `lastName` or `firstName` filter: in that name's order, case and accents folded, then id), a page at a time (`limit` 1–100, default 20; `after`: the previous page's `nextAfter`). " +
      '`lastName`, `firstName`: a prefix, case- and accent-insensitive ("mull" finds "Müller"); `email`: exact, case-insensitive; `phoneNumber`: exact once both sides are in E.164 (a number without a country code is read as a US number); `dateOfBirth`: exact; `createdFrom` (inclusive), `createdTo` (exclusive): ISO 8601 instants; `externalId`: exact; `metadata[key]=value`: the key has exactly this value (repeat for more keys: all must hold). ' +
      '`verificationStatus`: UNVERIFIED, PENDING, NEEDS_REVIEW, VERIFIED or REJECTED, the customers whose verification has it (`NEEDS_REVIEW`: the review queue; docs/verification.md); it needs `verification:read` besides `customers:read` (403 naming it otherwise). ' +
      'A social security number is refused here (400 `NOT_ALLOWED_IN_URL`: a URL lands in access logs); search by it with `POST /{environment}/customer/search`.',
    scope: 'customers:read',
    query: { schema: customerListQuerySchema, example: { lastName: 'mull', limit: '20' } },
    success: {
      status: 200,
      description: 'A page of customers.',
      data: customerPageDataSchema,
      component: 'CustomerPage',
    },
    failures: [limitValidationFailure(customerListQuerySchema)],
  },
  {
    operationId: 'getCustomer',
    method: 'GET',
    path: '/:environment/customer/:customerId',
    family: 'customer',
    tag: 'Customers',
    summary: 'Retrieve a customer',
    description: 'Answers the customer, without its social security number and document locator number.',
    scope: 'customers:read',
    success: {
      status: 200,
      description: 'The customer: a person, or a business (`customerType: BUSINESS`).',
      data: anyCustomerDataSchema,
      component: 'AnyCustomer',
    },
    versioned: 'conditional',
    failures: [customerNotFoundFailure],
  },
  {
    operationId: 'updateCustomer',
    method: 'PUT',
    path: '/:environment/customer/:customerId',
    family: 'customer',
    tag: 'Customers',
    summary: 'Update a customer',
    description:
      `Partial update: send only the fields to change (${UPDATABLE_CUSTOMER_FIELDS.join(', ')}); a list replaces the stored list whole. ` +
      '`externalId: null` clears the external id; `metadata` is merged into the stored pairs (an empty string or null removes a key, `"metadata": null` removes all). ' +
      'Identity fields (social security number, document locator number, date of birth, names) can never change. ' +
      'Answers the full updated customer to a token that also holds `customers:read`; to one without it, only `{customerId}` (its version is the ETag): a write never shows more than its token could read. ' +
      'An update that changes nothing is still a write: audited, and answered the same way.',
    scope: 'customers:write',
    requestBody: { schema: updateCustomerSchema, component: 'UpdateCustomerRequest', example: EXAMPLE_UPDATE_CUSTOMER },
    success: {
      status: 200,
      description: 'The updated customer (with `customers:read`), or its id alone (without).',
      data: customerAnswerDataSchema,
      component: 'CustomerAnswer',
    },
    versioned: 'conditional',
    failures: [
      fieldNotUpdatableFailure(['lastName'], UPDATABLE_CUSTOMER_FIELDS),
      failure(
        'FIELD_NOT_FOR_CUSTOMER_TYPE',
        "A field of the other kind of customer (a business's on a person, a person's on a business), named in `details`; nothing changes.",
        fieldsNotForCustomerType(['firstName'], 'BUSINESS'),
      ),
      customerNotFoundFailure,
      externalIdTakenFailure,
    ],
  },
  {
    operationId: 'deleteCustomer',
    method: 'DELETE',
    path: '/:environment/customer/:customerId',
    family: 'customer',
    tag: 'Customers',
    summary: 'Delete a customer',
    description:
      'Deletes the customer for good. Refused while any account is associated with it: delete those first; and while it is a beneficial owner of a business. A business is deleted with its beneficial owners list.',
    scope: 'customers:write',
    success: DELETED,
    versioned: 'conditional',
    failures: [
      customerNotFoundFailure,
      failure('CUSTOMER_HAS_ACCOUNTS', 'The customer still has accounts.', customerHasAccounts(2)),
      failure(
        'CUSTOMER_IS_A_BENEFICIAL_OWNER',
        'The customer (an individual without accounts) is a beneficial owner of a business: remove it there first. Deleting a business removes its own owners.',
        customerIsABeneficialOwner(1),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
