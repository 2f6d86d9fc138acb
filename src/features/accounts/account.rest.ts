import { ACCOUNT_FLAGS, ACCOUNT_ROLES } from './account.js';
import {
  ACCOUNT_LIMITS,
  addAccountCustomerSchema,
  createAccountSchema,
  FLAG_LIMITS,
  overdraftLimitSchema,
  setAccountCustomerRoleSchema,
  setAccountFlagSchema,
  liftAccountFlagSchema,
  UPDATABLE_ACCOUNT_FIELDS,
  updateAccountSchema,
} from './account.schemas.js';
import { CUSTOMER_LIMITS } from '../customers/index.js';
import {
  verificationRequired,
  accountBalanceNotZero,
  accountCustomerLimit,
  accountHasTransactions,
  accountNeedsACustomer,
  customerAccountLimit,
  customerAlreadyLinked,
  customerArchived,
  customerNotLinked,
  externalIdTaken,
  lastOwner,
  productMismatch,
  referencedCustomersNotFound,
  referencedProductNotFound,
  roleRequiresIndividual,
  validationFailed,
} from '../../domain/errors.js';
import {
  accountAnswerDataSchema,
  accountDataSchema,
  accountFlagsDataSchema,
  accountPageDataSchema,
} from './account.presenter.js';
import { type AccountFilterInput, accountListQuerySchema } from './account-search.js';
import type { Caller } from '../../domain/caller.js';
import { withMetadataFromQuery } from '../../domain/metadata.js';
import type { PageQuery } from '../../domain/pagination.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';

/** `GET /{environment}/account`: the query string as AccountService.find's filter and page. */
export function listAccountsQuery(caller: Caller, query: QueryString): { filter: AccountFilterInput; page: PageQuery } {
  // `metadata[key]=value`: Express's simple query parser leaves the brackets in the parameter's name.
  const { limit, after, ...filter } = parseQuery(
    caller,
    'accounts:read',
    accountListQuerySchema,
    withMetadataFromQuery(query),
  );
  return { filter, page: { first: limit, after } };
}
import { EXAMPLE_CREATE_ACCOUNT, EXAMPLE_IDS, EXAMPLE_UPDATE_ACCOUNT } from '../../rest/operations/examples.js';
import {
  accountNotFoundFailure,
  DELETED,
  failure,
  fieldNotUpdatableFailure,
  limitValidationFailure,
} from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';

const customerArchivedFailure = failure(
  'CUSTOMER_ARCHIVED',
  'A customer of the request is archived (docs/account-lifecycle.md): it opens no account; nothing changes.',
  customerArchived(),
);
const customerAccountLimitFailure = failure(
  'CUSTOMER_ACCOUNT_LIMIT',
  `A customer of the request already holds ${CUSTOMER_LIMITS.accounts} accounts, the most a customer may hold; nothing changes.`,
  customerAccountLimit(CUSTOMER_LIMITS.accounts),
);
const flagValidationFailure = failure(
  'VALIDATION_FAILED_flag',
  `The flag is not one of ${ACCOUNT_FLAGS.join(', ')}.`,
  validationFailed([{ field: 'flag', code: 'INVALID_VALUE', message: `Must be one of ${ACCOUNT_FLAGS.join(', ')}.` }]),
);
const externalIdTakenFailure = failure(
  'EXTERNAL_ID_TAKEN',
  'Another account of this environment has this externalId; nothing changes.',
  externalIdTaken('account'),
);
const ROLES_NOTE = `One of ${ACCOUNT_ROLES.join(', ')}.`;
const roleValidationFailure = failure(
  'VALIDATION_FAILED_role',
  'The role is not one of the roles.',
  validationFailed([{ field: 'role', code: 'INVALID_VALUE', message: `Must be one of ${ACCOUNT_ROLES.join(', ')}.` }]),
);
const roleRequiresIndividualFailure = failure(
  'ROLE_REQUIRES_INDIVIDUAL',
  'A BUSINESS customer as AUTHORIZED_SIGNER or AUTHORIZED_USER (at creation: one detail per customer).',
  roleRequiresIndividual(),
);
const lastOwnerFailure = failure('LAST_OWNER', 'The customer is the last OWNER of the account.', lastOwner());
const customerNotLinkedFailure = failure(
  'CUSTOMER_NOT_FOUND',
  'The customer is not a holder of this account.',
  customerNotLinked(),
);
const answersAccount = (description: string): RestRoute['success'] => ({
  status: 200,
  description,
  data: accountDataSchema,
  component: 'Account',
});
/**
 * A write's answer (src/domain/answer-shape.ts): the full account to a token that also holds `accounts:read`,
 * only `{accountId}` to one without it (the version is the ETag where the route answers one).
 */
const answersAccountOrAcknowledgment = (description: string, status: 200 | 201 = 200): RestRoute['success'] => ({
  status,
  description: `${description} The full account with \`accounts:read\`; without it, only \`{accountId}\`.`,
  data: accountAnswerDataSchema,
  component: 'AccountAnswer',
});
/** What the descriptions of the account's writes say about their answers. */
const WRITE_ANSWER_NOTE =
  'Answers the full account to a token that also holds `accounts:read`; to one without it, only `{accountId}`: a write never shows more than its token could read (the balance, holders and transactions need `accounts:read`).';
/** What the descriptions of the writes that may change nothing say about it. */
const NO_OP_NOTE =
  'A call that changes nothing is still audited (an audit event with empty `changedFields`), and answered the same way; it writes no event.';
const FLAG_PARAMETER_NOTE = `One of ${ACCOUNT_FLAGS.join(', ')}.`;

/** The operations tagged Accounts, in the order of the reference. */
export const ACCOUNTS_ROUTES = [
  {
    operationId: 'createAccount',
    method: 'POST',
    path: '/:environment/account',
    family: 'account',
    tag: 'Accounts',
    summary: 'Create an account',
    description:
      'Opens an account for one or more existing customers: amount 0, no transactions, no flags. ' +
      `${WRITE_ANSWER_NOTE} ` +
      'Not in the contract, optional: `externalId` (your own id for the account, unique per environment) and `metadata` (your key-value pairs; never personal data). ' +
      "Optional, `productCode`: the deposit product it opens on (docs/products.md): the product's accountType must be `type` and its currency `currency` (else PRODUCT_MISMATCH); the answer shows `productCode` only then. " +
      `Also optional, \`relationships: [{customerId, role}]\`: roles of some of \`associatedCustomerIds\` (${ROLES_NOTE} Others are OWNERs); each id one of \`associatedCustomerIds\` (else NOT_ASSOCIATED), at least one OWNER (else OWNER_REQUIRED).`,
    scope: 'accounts:write',
    requestBody: { schema: createAccountSchema, component: 'CreateAccountRequest', example: EXAMPLE_CREATE_ACCOUNT },
    success: answersAccountOrAcknowledgment('Created. `Location` names the new account.', 201),
    versioned: 'tagged',
    failures: [
      failure(
        'CUSTOMER_NOT_FOUND',
        'Associated customers do not exist in this environment (one detail per id); nothing is created.',
        referencedCustomersNotFound([EXAMPLE_IDS.otherCustomerId]),
      ),
      customerAccountLimitFailure,
      customerArchivedFailure,
      externalIdTakenFailure,
      roleRequiresIndividualFailure,
      failure(
        'VERIFICATION_REQUIRED',
        'A gated environment (VERIFICATION_REQUIRED): an associated customer is not VERIFIED (one detail per customer); nothing is created.',
        verificationRequired([EXAMPLE_IDS.otherCustomerId]),
      ),
      failure(
        'PRODUCT_NOT_FOUND',
        '`productCode` names no product of this environment; nothing is created.',
        referencedProductNotFound(),
      ),
      failure(
        'PRODUCT_MISMATCH',
        "The account's `type` or `currency` is not its product's (a detail each); nothing is created.",
        productMismatch([{ field: 'currency', code: 'PRODUCT_MISMATCH', message: "Must be the product's currency." }]),
      ),
    ],
  },
  {
    operationId: 'listAccounts',
    method: 'GET',
    path: '/:environment/account',
    family: 'account',
    tag: 'Accounts',
    summary: 'List and filter accounts',
    description:
      "Not in the contract. The accounts matching every given filter, in id order, a page at a time (`limit` 1–100, default 20; `after`: the previous page's `nextAfter`). " +
      '`customerId`: the accounts the customer holds; `type`, `currency`: exact; `flag`: accounts carrying that flag; `externalId`: exact; `metadata[key]=value`: the key has exactly this value (repeat for more keys: all must hold); `accountNumberLast4`: an account number of the account that is not CANCELED ends in these four digits.',
    scope: 'accounts:read',
    query: { schema: accountListQuerySchema, example: { currency: 'USD', flag: 'FROZEN', limit: '20' } },
    success: { status: 200, description: 'A page of accounts.', data: accountPageDataSchema, component: 'AccountPage' },
    failures: [limitValidationFailure(accountListQuerySchema)],
  },
  {
    operationId: 'getAccount',
    method: 'GET',
    path: '/:environment/account/:accountId',
    family: 'account',
    tag: 'Accounts',
    summary: 'Retrieve an account',
    description: 'Answers the account with the ids of its customers.',
    scope: 'accounts:read',
    success: answersAccount('The account.'),
    versioned: 'conditional',
    failures: [accountNotFoundFailure],
  },
  {
    operationId: 'updateAccount',
    method: 'PUT',
    path: '/:environment/account/:accountId',
    family: 'account',
    tag: 'Accounts',
    summary: 'Update an account',
    description:
      "Sets the account's name and currency (both required); its type never changes. Optional: `externalId` (null clears it) and `metadata`, merged into the stored pairs " +
      '(an empty string or null removes a key, `"metadata": null` removes all). ' +
      `${WRITE_ANSWER_NOTE} An update that changes nothing is still a write: audited, and answered the same way.`,
    scope: 'accounts:write',
    requestBody: { schema: updateAccountSchema, component: 'UpdateAccountRequest', example: EXAMPLE_UPDATE_ACCOUNT },
    success: answersAccountOrAcknowledgment('The updated account.'),
    versioned: 'conditional',
    failures: [
      fieldNotUpdatableFailure(['type'], UPDATABLE_ACCOUNT_FIELDS),
      accountNotFoundFailure,
      failure(
        'ACCOUNT_HAS_TRANSACTIONS',
        'The currency would change on an account that has transactions.',
        accountHasTransactions(),
      ),
      externalIdTakenFailure,
      failure(
        'PRODUCT_MISMATCH',
        "The currency would change on an account opened on a product (docs/products.md): it keeps the product's; nothing changes.",
        productMismatch([{ field: 'currency', code: 'PRODUCT_MISMATCH', message: "Must be the product's currency." }]),
      ),
    ],
  },
  {
    operationId: 'deleteAccount',
    method: 'DELETE',
    path: '/:environment/account/:accountId',
    family: 'account',
    tag: 'Accounts',
    summary: 'Delete an account',
    description:
      'Deletes the account and its links to customers, only at a zero balance with no pending hold. Its transactions stay in the ledger for audit.',
    scope: 'accounts:write',
    success: DELETED,
    versioned: 'conditional',
    failures: [
      accountNotFoundFailure,
      failure('ACCOUNT_BALANCE_NOT_ZERO', 'The account holds money or a pending hold.', accountBalanceNotZero()),
    ],
  },
  {
    operationId: 'addAccountCustomer',
    method: 'POST',
    path: '/:environment/account/:accountId/customer',
    family: 'account',
    tag: 'Accounts',
    summary: 'Add a customer to an account',
    description: `Makes an existing customer of the environment one more holder of the account (a joint account), after the others; at most ${ACCOUNT_LIMITS.associatedCustomers}. A customer already on the account leaves it unchanged. ${WRITE_ANSWER_NOTE} ${NO_OP_NOTE} Not in the contract, optional: \`role\` (${ROLES_NOTE} OWNER when absent); a customer already on the account with another role is refused (CUSTOMER_ALREADY_LINKED: change it with PUT …/customer/{customerId}). In an environment that requires verification (VERIFICATION_REQUIRED), the customer must be VERIFIED, whatever its role.`,
    scope: 'accounts:write',
    naturallyIdempotent: true,
    requestBody: {
      schema: addAccountCustomerSchema,
      component: 'AddAccountCustomerRequest',
      example: { customerId: EXAMPLE_IDS.otherCustomerId },
    },
    success: answersAccountOrAcknowledgment('The account with the customer.'),
    failures: [
      accountNotFoundFailure,
      failure(
        'CUSTOMER_NOT_FOUND',
        'The customer does not exist in this environment; nothing changes.',
        referencedCustomersNotFound([EXAMPLE_IDS.otherCustomerId]),
      ),
      customerArchivedFailure,
      failure(
        'ACCOUNT_CUSTOMER_LIMIT',
        `The account already has ${ACCOUNT_LIMITS.associatedCustomers} customers.`,
        accountCustomerLimit(ACCOUNT_LIMITS.associatedCustomers),
      ),
      customerAccountLimitFailure,
      roleValidationFailure,
      roleRequiresIndividualFailure,
      failure('CUSTOMER_ALREADY_LINKED', 'The customer is on the account with another role.', customerAlreadyLinked()),
      failure(
        'VERIFICATION_REQUIRED',
        'A gated environment (VERIFICATION_REQUIRED): the customer is not VERIFIED (one detail naming it); nothing changes.',
        verificationRequired([EXAMPLE_IDS.otherCustomerId]),
      ),
    ],
  },
  {
    operationId: 'setAccountCustomerRole',
    method: 'PUT',
    path: '/:environment/account/:accountId/customer/:customerId',
    family: 'account',
    tag: 'Accounts',
    summary: "Change a customer's role on an account",
    description: `Not in the contract. Gives a customer of the account another \`role\` (${ROLES_NOTE}) The last OWNER keeps its role. AUTHORIZED_SIGNER and AUTHORIZED_USER must be INDIVIDUAL customers. The same role changes nothing. ${NO_OP_NOTE} ${WRITE_ANSWER_NOTE}`,
    scope: 'accounts:write',
    requestBody: {
      schema: setAccountCustomerRoleSchema,
      component: 'SetAccountCustomerRoleRequest',
      example: { role: 'AUTHORIZED_SIGNER' },
    },
    success: answersAccountOrAcknowledgment('The account with the new role.'),
    versioned: 'conditional',
    failures: [
      roleValidationFailure,
      accountNotFoundFailure,
      customerNotLinkedFailure,
      lastOwnerFailure,
      roleRequiresIndividualFailure,
    ],
  },
  {
    operationId: 'removeAccountCustomer',
    method: 'DELETE',
    path: '/:environment/account/:accountId/customer/:customerId',
    family: 'account',
    tag: 'Accounts',
    summary: 'Remove a customer from an account',
    description: `The customer stops being a holder of the account; the last customer cannot be removed (delete the account instead), nor the last OWNER (LAST_OWNER). ${WRITE_ANSWER_NOTE}`,
    scope: 'accounts:write',
    success: answersAccountOrAcknowledgment('The account without the customer.'),
    versioned: 'conditional',
    failures: [
      accountNotFoundFailure,
      customerNotLinkedFailure,
      failure('ACCOUNT_NEEDS_A_CUSTOMER', 'The customer is the last one of the account.', accountNeedsACustomer()),
      lastOwnerFailure,
    ],
  },
  {
    operationId: 'setAccountFlag',
    method: 'PUT',
    path: '/:environment/account/:accountId/flags/:flag',
    family: 'account',
    tag: 'Accounts',
    summary: 'Set a flag',
    description:
      `Sets a flag the ledger enforces (${FLAG_PARAMETER_NOTE}) FROZEN: nothing posts on the account, holds can still be voided. DEBITS_BLOCKED / CREDITS_BLOCKED: no debit / credit posts or is held. ` +
      `The body is optional (the contract's call sends none): \`reason\` (up to ${FLAG_LIMITS.reasonLength} characters) and \`until\`, an RFC 3339 instant in the future when the flag lifts itself (audited as \`system:flag-expiry\`, with the same event as a clear). ` +
      `Setting a set flag without either changes nothing; with either, its reason and end are replaced. ${NO_OP_NOTE} ${WRITE_ANSWER_NOTE} \`GET .../flags\` answers the details.`,
    scope: 'accounts:controls',
    requestBody: {
      schema: setAccountFlagSchema,
      component: 'SetAccountFlagRequest',
      example: { reason: 'Suspected fraud, case 4711', until: '2026-12-24T17:00:00Z' },
      optional: true,
    },
    success: answersAccountOrAcknowledgment('The account with the flag.'),
    versioned: 'conditional',
    failures: [
      flagValidationFailure,
      failure(
        'VALIDATION_FAILED_until',
        '`until` is not in the future (or `reason` is empty or too long); nothing changes.',
        validationFailed([{ field: 'until', code: 'OUT_OF_RANGE', message: 'Must be in the future.' }]),
      ),
      accountNotFoundFailure,
    ],
  },
  {
    operationId: 'listAccountFlags',
    method: 'GET',
    path: '/:environment/account/:accountId/flags',
    family: 'account',
    tag: 'Accounts',
    summary: 'Read the flags with their details',
    description:
      'Not in the contract. The flags the account carries, each with its `reason`, when (`setAt`) and by whom (`setBy`: the principal as the audit trail names it; `setByName`: its name then) it was set, and `until`, when it lifts itself. ' +
      "Flags set before flags had details answer null for these. The account's own `flags` stays the list of names.",
    scope: 'accounts:read',
    success: {
      status: 200,
      description: 'The flags with their details.',
      data: accountFlagsDataSchema,
      component: 'AccountFlags',
    },
    failures: [accountNotFoundFailure],
  },
  {
    operationId: 'clearAccountFlag',
    method: 'DELETE',
    path: '/:environment/account/:accountId/flags/:flag',
    family: 'account',
    tag: 'Accounts',
    summary: 'Clear a flag',
    description: `Clears a flag (${FLAG_PARAMETER_NOTE}); clearing a flag that is not set changes nothing. To say why, lift it with \`POST …/flags/{flag}/lift\` instead. ${NO_OP_NOTE} ${WRITE_ANSWER_NOTE}`,
    scope: 'accounts:controls',
    success: answersAccountOrAcknowledgment('The account without the flag.'),
    versioned: 'conditional',
    failures: [flagValidationFailure, accountNotFoundFailure],
  },
  {
    operationId: 'liftAccountFlag',
    method: 'POST',
    path: '/:environment/account/:accountId/flags/:flag/lift',
    family: 'account',
    tag: 'Accounts',
    summary: 'Lift a flag, saying why',
    description:
      `Not in the contract. Clears a flag as \`DELETE …/flags/{flag}\` does (${FLAG_PARAMETER_NOTE}), with a required \`reason\` (up to 500 characters). ` +
      "The lift is kept with its reason and who lifted it, and read back in the customer's timeline (GraphQL `Customer.timeline`). " +
      `${NO_OP_NOTE} ${WRITE_ANSWER_NOTE}`,
    // A second lift of the same flag finds it lifted and changes nothing: no key needed.
    naturallyIdempotent: true,
    scope: 'accounts:controls',
    requestBody: {
      schema: liftAccountFlagSchema,
      component: 'LiftAccountFlagRequest',
      example: { reason: 'Customer confirmed the card transactions by phone.' },
    },
    success: answersAccountOrAcknowledgment('The account without the flag.'),
    failures: [
      flagValidationFailure,
      failure(
        'VALIDATION_FAILED_reason',
        '`reason` is missing, empty or longer than 500 characters; nothing changes.',
        validationFailed([{ field: 'reason', code: 'TOO_LONG', message: 'Must be at most 500 characters.' }]),
      ),
      accountNotFoundFailure,
    ],
  },
  {
    operationId: 'setOverdraftLimit',
    method: 'PUT',
    path: '/:environment/account/:accountId/overdraft-limit',
    family: 'account',
    tag: 'Accounts',
    summary: 'Set the overdraft limit',
    description:
      'How far below zero the available balance may go; 0 (the default) allows no overdraft. A lower limit never changes a balance already below it: it only refuses further debits. ' +
      `Setting the limit it already has changes nothing. ${NO_OP_NOTE} ${WRITE_ANSWER_NOTE}`,
    scope: 'accounts:controls',
    requestBody: { schema: overdraftLimitSchema, component: 'OverdraftLimitRequest', example: { overdraftLimit: 500 } },
    success: answersAccountOrAcknowledgment('The account with its new limit.'),
    versioned: 'conditional',
    failures: [accountNotFoundFailure],
  },
] as const satisfies readonly RestRoute[];
