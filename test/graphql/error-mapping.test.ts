import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unauthenticated } from '../../src/auth/errors.js';
import {
  customerNotFound,
  DomainError,
  fieldsNotUpdatable,
  referencedCustomersNotFound,
  validationFailed,
} from '../../src/domain/errors.js';
import { rateLimited } from '../../src/http/rate-limit.js';
import {
  errorScope,
  formatGraphqlError,
  redactSyntaxError,
  redactValidationError,
  requestGraphqlError,
} from '../../src/graphql/error-mapping.js';
import { createLogger } from '../../src/logging/logger.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { createAccount, createCustomer, errorCodes, graphql } from './helpers.js';

/** A resolver error as graphql-js hands it to Apollo: located at a path, wrapping what was thrown. */
const located = (thrown: Error) => new GraphQLError(thrown.message, { path: ['field'], originalError: thrown });
const format = (error: GraphQLError) =>
  errorScope.run({ requestId: 'req-1', logger: createLogger({ level: 'silent', pretty: false }) }, () =>
    formatGraphqlError({ message: error.message, path: error.path, extensions: error.extensions }, error),
  );

describe('error mapping (one module, same codes as REST)', () => {
  it('maps every domain error to its REST code, with details when it has them, and the request id', () => {
    expect(format(located(fieldsNotUpdatable(['firstName', 'dateOfBirth'], ['preferredName'])))).toEqual({
      message: 'These fields cannot be updated: firstName, dateOfBirth. Updatable fields: preferredName.',
      path: ['field'],
      extensions: {
        code: 'FIELD_NOT_UPDATABLE',
        details: [
          { field: 'firstName', code: 'FIELD_NOT_UPDATABLE', message: 'firstName cannot be changed after creation.' },
          {
            field: 'dateOfBirth',
            code: 'FIELD_NOT_UPDATABLE',
            message: 'dateOfBirth cannot be changed after creation.',
          },
        ],
        requestId: 'req-1',
      },
    });
    expect(
      format(
        located(
          validationFailed([{ field: 'emails.0', code: 'INVALID_FORMAT', message: 'Must be a valid email address.' }]),
        ),
      ).extensions,
    ).toEqual({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'emails.0', code: 'INVALID_FORMAT', message: 'Must be a valid email address.' }],
      requestId: 'req-1',
    });
    expect(format(located(referencedCustomersNotFound(['a']))).extensions).toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
      details: [{ field: 'associatedCustomerIds' }],
    });
    expect(format(located(customerNotFound())).extensions).toEqual({ code: 'CUSTOMER_NOT_FOUND', requestId: 'req-1' });
  });

  it('gives errors raised before execution the HTTP status REST uses', () => {
    const error = requestGraphqlError(unauthenticated('Send a token.'));
    expect(error.extensions.http).toEqual({
      status: 401,
      headers: new Map([['www-authenticate', 'Bearer realm="customer-account-service"']]),
    });
    const refused = requestGraphqlError(unauthenticated('The bearer token is not valid.', { error: 'invalid_token' }));
    expect(refused.extensions.http).toEqual({
      status: 401,
      headers: new Map([
        [
          'www-authenticate',
          'Bearer realm="customer-account-service", error="invalid_token", error_description="The bearer token is not valid."',
        ],
      ]),
    });
    expect(requestGraphqlError(rateLimited(7)).extensions.http).toMatchObject({ status: 429 });
    expect(requestGraphqlError(new DomainError('SERVICE_UNAVAILABLE', 'unavailable', 'x')).extensions.http).toEqual({
      status: 503,
      headers: new Map([['retry-after', '1']]),
    });
  });

  it('masks anything unexpected as INTERNAL_ERROR with the fixed message REST answers', () => {
    const formatted = format(
      located(new Error('relation "accounts" does not exist: SELECT * FROM accounts WHERE ssn = 123456789')),
    );
    expect(formatted).toEqual({
      message: 'Something went wrong on our side. Quote the requestId if you report it.',
      path: ['field'],
      extensions: { code: 'INTERNAL_ERROR', requestId: 'req-1' },
    });
  });

  it('cuts submitted values out of syntax and validation messages', () => {
    expect(redactSyntaxError('Syntax Error: Expected Name, found String "123-45-6789".')).toBe(
      'Syntax Error: Expected Name, found String.',
    );
    expect(redactSyntaxError('Syntax Error: Unexpected Int "123456789".')).toBe('Syntax Error: Unexpected Int.');
    expect(redactSyntaxError('Syntax Error: Unexpected Name "fragmen".')).toBe(
      'Syntax Error: Unexpected Name "fragmen".',
    );
    expect(redactSyntaxError('Syntax Error: Unexpected Name "ssn123456789".')).toBe('Syntax Error: Unexpected Name.');
    expect(redactValidationError('Expected value of type "String!", found 123456789.')).toBe(
      'Expected value of type "String!".',
    );
    expect(redactValidationError('String cannot represent a non string value: 123456789')).toBe(
      'Expected a value of type "String".',
    );
    expect(redactValidationError('Cannot query field "ssn" on type "Customer".')).toBe(
      'Cannot query field "ssn" on type "Customer".',
    );
  });
});

describe('an unexpected failure on a live service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service?.stop());

  it('answers INTERNAL_ERROR without SQL, stack or schema internals, and logs it with the request id', async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    const accountId = await createAccount(service, buildAccountInput([customerId]));
    await service.database.pool.query('ALTER TABLE accounts RENAME COLUMN name TO name_moved_by_test');
    const result = await graphql(
      service,
      'query($id: ID!) { account(accountId: $id) { accountId name } }',
      { id: accountId },
      { headers: { 'x-request-id': 'internal-error-1' } },
    );
    expect(result.status).toBe(200);
    expect(errorCodes(result)).toEqual(['INTERNAL_ERROR']);
    expect(result.json.data).toEqual({ account: null });
    expect(result.json.errors[0]).toEqual({
      message: 'Something went wrong on our side. Quote the requestId if you report it.',
      locations: [{ line: 1, column: 19 }],
      path: ['account'],
      extensions: { code: 'INTERNAL_ERROR', requestId: 'internal-error-1' },
    });
    expect(result.text).not.toMatch(/name_moved|does not exist|select|prisma|stack|\.ts:/i);
    const logged = service.logLines.filter(
      (line) => line.includes('"requestId":"internal-error-1"') && line.includes('unexpected error'),
    );
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toMatch(/name_moved_by_test|SELECT/);
  });
});
