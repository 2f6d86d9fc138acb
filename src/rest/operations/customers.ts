import { createCustomerSchema, UPDATABLE_CUSTOMER_FIELDS, updateCustomerSchema } from '../../domain/customers/customer.schemas.js';
import { customerAlreadyExists, customerHasAccounts, customerNotFound } from '../../domain/errors.js';
import { createdCustomerDataSchema, customerDataSchema } from '../../presenters/customers.js';
import { EXAMPLE_CREATE_CUSTOMER, EXAMPLE_UPDATE_CUSTOMER } from './examples.js';
import { DELETED, failure, fieldNotUpdatableFailure } from './failures.js';
import type { RestRoute } from './route.js';

const customerNotFoundFailure = failure('CUSTOMER_NOT_FOUND', 'No customer with this id in this environment (an id that is not a UUID cannot name one).', customerNotFound());

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
      'The social security number and document locator number are stored encrypted and never returned.',
    scope: 'customers:write',
    requestBody: { schema: createCustomerSchema, component: 'CreateCustomerRequest', example: EXAMPLE_CREATE_CUSTOMER },
    success: { status: 201, description: 'Created. `Location` names the new customer.', data: createdCustomerDataSchema, component: 'CreatedCustomer' },
    failures: [
      failure('CUSTOMER_ALREADY_EXISTS', 'A customer with this social security number exists in this environment (with or without dashes).', customerAlreadyExists()),
    ],
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
    success: { status: 200, description: 'The customer.', data: customerDataSchema, component: 'Customer' },
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
      'Identity fields (social security number, document locator number, date of birth, names) can never change. Answers the full updated customer.',
    scope: 'customers:write',
    requestBody: { schema: updateCustomerSchema, component: 'UpdateCustomerRequest', example: EXAMPLE_UPDATE_CUSTOMER },
    success: { status: 200, description: 'The updated customer.', data: customerDataSchema, component: 'Customer' },
    failures: [fieldNotUpdatableFailure(['lastName'], UPDATABLE_CUSTOMER_FIELDS), customerNotFoundFailure],
  },
  {
    operationId: 'deleteCustomer',
    method: 'DELETE',
    path: '/:environment/customer/:customerId',
    family: 'customer',
    tag: 'Customers',
    summary: 'Delete a customer',
    description: 'Deletes the customer for good. Refused while any account is associated with it: delete those first.',
    scope: 'customers:write',
    success: DELETED,
    failures: [
      customerNotFoundFailure,
      failure('CUSTOMER_HAS_ACCOUNTS', 'The customer still has accounts.', customerHasAccounts(2)),
    ],
  },
] as const satisfies readonly RestRoute[];
