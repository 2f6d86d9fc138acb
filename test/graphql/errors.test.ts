import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertNoSensitiveValues,
  buildAccountInput,
  buildCustomerInput,
  SENSITIVE_VALUES,
  uniqueSsn,
} from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';
import { CREATE_CUSTOMER, createAccount, createCustomer, errorCodes, graphql } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const MISSING_ID = '01990000-0000-7000-8000-000000000000';
const UPDATE_CUSTOMER =
  'mutation($id: ID!, $input: UpdateCustomerInput!) { updateCustomer(customerId: $id, input: $input) { customerId preferredName emails } }';

describe('domain errors keep their REST code, message and details', () => {
  it('VALIDATION_FAILED lists every problem in extensions.details and never echoes the SSN', async () => {
    const badSsn = '000-12-3456';
    SENSITIVE_VALUES.add(badSsn);
    const input = buildCustomerInput({
      socialSecurityNumber: badSsn,
      emails: ['not-an-email'],
      dateOfBirth: '2999-01-01',
    });
    const result = await graphql(service, CREATE_CUSTOMER, { input });
    expect(result.status).toBe(200);
    expect(result.json.data).toBeNull();
    const [error] = result.json.errors;
    expect(error.extensions.code).toBe('VALIDATION_FAILED');
    expect(error.path).toEqual(['createCustomer']);
    expect(error.extensions.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'dateOfBirth',
      'emails.0',
      'socialSecurityNumber',
    ]);
    expect(error.extensions.requestId).toBe(result.headers.get('x-request-id'));
  });

  it('CUSTOMER_ALREADY_EXISTS when the SSN is enrolled; nothing is created', async () => {
    const input = buildCustomerInput();
    await createCustomer(service, input);
    const again = await graphql(service, CREATE_CUSTOMER, {
      input: { ...input, socialSecurityNumber: input.socialSecurityNumber.replaceAll('-', '') },
    });
    expect(errorCodes(again)).toEqual(['CUSTOMER_ALREADY_EXISTS']);
    const { rows } = await service.database.pool.query('SELECT count(*)::int AS n FROM customers');
    expect(rows[0].n).toBe(1);
  });

  it('CUSTOMER_NOT_FOUND / ACCOUNT_NOT_FOUND for updates and deletes of absent records; null for reads', async () => {
    const update = await graphql(service, UPDATE_CUSTOMER, { id: MISSING_ID, input: { preferredName: 'X' } });
    expect(errorCodes(update)).toEqual(['CUSTOMER_NOT_FOUND']);
    const deleteCustomer = await graphql(service, 'mutation($id: ID!) { deleteCustomer(customerId: $id) }', {
      id: 'not-a-uuid',
    });
    expect(errorCodes(deleteCustomer)).toEqual(['CUSTOMER_NOT_FOUND']);
    const updateAccount = await graphql(
      service,
      'mutation($id: ID!) { updateAccount(accountId: $id, input: { name: "A", currency: "USD" }) { accountId } }',
      { id: MISSING_ID },
    );
    expect(errorCodes(updateAccount)).toEqual(['ACCOUNT_NOT_FOUND']);
    const deleteAccount = await graphql(service, 'mutation($id: ID!) { deleteAccount(accountId: $id) }', {
      id: MISSING_ID,
    });
    expect(errorCodes(deleteAccount)).toEqual(['ACCOUNT_NOT_FOUND']);
    const read = await graphql(
      service,
      'query($id: ID!) { customer(customerId: $id) { customerId } account(accountId: $id) { accountId } }',
      { id: MISSING_ID },
    );
    expect(read.json).toEqual({ data: { customer: null, account: null } });
  });

  it('CUSTOMER_NOT_FOUND with details naming the unknown customers of a new account', async () => {
    const known = await createCustomer(service, buildCustomerInput());
    const result = await graphql(
      service,
      'mutation($input: CreateAccountInput!) { createAccount(input: $input) { accountId } }',
      { input: buildAccountInput([known, MISSING_ID]) },
    );
    const [error] = result.json.errors;
    expect(error.extensions.code).toBe('CUSTOMER_NOT_FOUND');
    expect(error.extensions.details).toEqual([
      {
        field: 'associatedCustomerIds',
        code: 'CUSTOMER_NOT_FOUND',
        message: `No customer ${MISSING_ID} in this environment.`,
      },
    ]);
  });

  it('CUSTOMER_HAS_ACCOUNTS refuses to delete a customer with an account', async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    await createAccount(service, buildAccountInput([customerId]));
    const result = await graphql(service, 'mutation($id: ID!) { deleteCustomer(customerId: $id) }', { id: customerId });
    expect(errorCodes(result)).toEqual(['CUSTOMER_HAS_ACCOUNTS']);
    expect(result.json.errors[0].message).toMatch(/delete them before deleting the customer/);
  });

  it('an update with an explicit null or with no field at all is VALIDATION_FAILED and changes nothing', async () => {
    const customerId = await createCustomer(service, buildCustomerInput({ preferredName: 'Before' }));
    const withNull = await graphql(service, UPDATE_CUSTOMER, { id: customerId, input: { preferredName: null } });
    expect(errorCodes(withNull)).toEqual(['VALIDATION_FAILED']);
    expect(withNull.json.errors[0].extensions.details).toMatchObject([{ field: 'preferredName' }]);
    const empty = await graphql(service, UPDATE_CUSTOMER, { id: customerId, input: {} });
    expect(errorCodes(empty)).toEqual(['VALIDATION_FAILED']);
    const read = await graphql(service, 'query($id: ID!) { customer(customerId: $id) { preferredName } }', {
      id: customerId,
    });
    expect(read.json.data.customer.preferredName).toBe('Before');
  });

  it('fields that can never change are not in the update input: the type system refuses them', async () => {
    const customerId = await createCustomer(service, buildCustomerInput());
    const result = await graphql(service, UPDATE_CUSTOMER, { id: customerId, input: { firstName: 'Changed' } });
    expect(result.status).toBe(400);
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.json.errors[0].message).toBe(
      'Variable "$input" has an invalid value: Field "firstName" is not defined by type "UpdateCustomerInput".',
    );
  });
});

describe('no submitted value is ever echoed in an error', () => {
  const ssn = () => uniqueSsn();
  /** Nine digits that survive being written as a number (no leading zero), so an echo would be caught. */
  const ssnDigits = (): string => {
    for (;;) {
      const digits = uniqueSsn().replaceAll('-', '');
      if (!digits.startsWith('0')) return digits;
    }
  };

  it('a document locator number variable given an SSN string', async () => {
    const value = ssn();
    const result = await graphql(service, CREATE_CUSTOMER, {
      input: { ...buildCustomerInput(), documentLocatorNumber: value },
    });
    expect(result.status).toBe(400);
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.json.errors[0].message).toBe(
      'Variable "$input" has an invalid value at "input.documentLocatorNumber": SafeInt must be a whole number between -9007199254740991 and 9007199254740991.',
    );
    // The place, as a field a form can show the refusal next to (the path below the variable); no value in it.
    expect(result.json.errors[0].extensions.details).toEqual([
      {
        field: 'documentLocatorNumber',
        code: 'INVALID_VALUE',
        message: 'SafeInt must be a whole number between -9007199254740991 and 9007199254740991.',
      },
    ]);
  });

  it('an SSN sent as a number where a String is expected', async () => {
    const digits = Number(ssnDigits());
    const result = await graphql(service, CREATE_CUSTOMER, {
      input: { ...buildCustomerInput(), socialSecurityNumber: digits },
    });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.json.errors[0].message).toBe(
      'Variable "$input" has an invalid value at "input.socialSecurityNumber": Expected type "String".',
    );
  });

  it('a missing field (graphql-js would print the whole input object, SSN included)', async () => {
    const { firstName: _omitted, ...input } = buildCustomerInput();
    const result = await graphql(service, CREATE_CUSTOMER, { input });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.json.errors[0].message).toBe(
      'Variable "$input" has an invalid value: Field "firstName" of required type "String!" was not provided.',
    );
  });

  it('an unknown input key that is itself an SSN', async () => {
    const result = await graphql(service, CREATE_CUSTOMER, { input: { ...buildCustomerInput(), [ssn()]: true } });
    expect(result.json.errors[0].message).toBe(
      'Variable "$input" has an invalid value: A field is not defined by type "CreateCustomerInput".',
    );
  });

  it('an SSN object where an ID variable is expected', async () => {
    const result = await graphql(service, 'query($id: ID!) { customer(customerId: $id) { customerId } }', {
      id: { socialSecurityNumber: ssn() },
    });
    expect(errorCodes(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.json.errors[0].message).toBe('Variable "$id" has an invalid value: Expected type "ID".');
    // No place below the variable's own value: no field detail.
    expect(result.json.errors[0].extensions.details).toBeUndefined();
  });

  it('an SSN list in a nested input', async () => {
    const result = await graphql(service, CREATE_CUSTOMER, {
      input: { ...buildCustomerInput(), phoneNumbers: [{ type: 'MOBILE', number: [ssn()] }] },
    });
    expect(result.json.errors[0].message).toBe(
      'Variable "$input" has an invalid value at "input.phoneNumbers[0].number": Expected type "String".',
    );
    expect(result.json.errors[0].extensions.details).toEqual([
      { field: 'phoneNumbers[0].number', code: 'INVALID_VALUE', message: 'Expected type "String".' },
    ]);
  });

  it('an SSN literal of the wrong type in the document', async () => {
    const digits = ssnDigits();
    const result = await graphql(
      service,
      `mutation { createCustomer(input: { socialSecurityNumber: ${digits}, dateOfBirth: "1980-01-01", documentLocatorNumber: 1, preferredName: "A", firstName: "A", middleName: "", lastName: "B", emails: [], phoneNumbers: [], addresses: [] }) { customerId } }`,
    );
    expect(result.status).toBe(400);
    expect(errorCodes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.json.errors[0].message).toBe('Expected a value of type "String".');
  });

  it('an SSN as a document locator number literal', async () => {
    const result = await graphql(
      service,
      `mutation { createCustomer(input: { socialSecurityNumber: "x", dateOfBirth: "1980-01-01", documentLocatorNumber: "${ssn()}", preferredName: "A", firstName: "A", middleName: "", lastName: "B", emails: [], phoneNumbers: [], addresses: [] }) { customerId } }`,
    );
    expect(errorCodes(result)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    expect(result.json.errors[0].message).toBe('SafeInt must be a whole number, written without quotes.');
  });

  it('an SSN inside a syntax error', async () => {
    for (const query of [`{ "${ssn()}" }`, `{ ${ssnDigits()} }`, `{ customer(customerId: "${ssn()}" }`]) {
      const result = await graphql(service, query);
      expect(result.status).toBe(400);
      expect(errorCodes(result)).toEqual(['GRAPHQL_PARSE_FAILED']);
      expect(result.json.errors[0].message).toMatch(/^Syntax Error: /);
    }
  });

  it('an SSN as the operation name', async () => {
    const result = await graphql(service, 'query A { customers { pageInfo { hasNextPage } } }', undefined, {
      operationName: ssn(),
    });
    expect(errorCodes(result)).toEqual(['OPERATION_RESOLUTION_FAILURE']);
    expect(result.json.errors[0].message).toBe('Unknown operation named in operationName.');
  });

  it('an SSN in a body that is not valid JSON: 400 MALFORMED_REQUEST, nothing logged of the body', async () => {
    const value = ssn();
    const result = await service.call('POST', '/sandbox/graphql', {
      rawBody: `{"query": "{ x }", "variables": {"ssn": "${value}"`,
      headers: { 'content-type': 'application/json' },
    });
    expect(result.status).toBe(400);
    expect(errorCodes(result)).toEqual(['MALFORMED_REQUEST']);
  });

  it('a body over BODY_LIMIT: 413 PAYLOAD_TOO_LARGE', async () => {
    const result = await service.call('POST', '/sandbox/graphql', {
      body: { query: '{ __typename }', variables: { padding: 'x'.repeat(70 * 1024) } },
    });
    expect(result.status).toBe(413);
    expect(errorCodes(result)).toEqual(['PAYLOAD_TOO_LARGE']);
  });

  it('body failures have the status, code and text of REST (src/http/errors.ts)', async () => {
    const rest = await service.call('POST', '/sandbox/customer', {
      rawBody: '{"firstName": ',
      headers: { 'content-type': 'application/json' },
    });
    const graphqlBody = await service.call('POST', '/sandbox/graphql', {
      rawBody: '{"query": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(graphqlBody.status).toBe(rest.status);
    expect(graphqlBody.json.errors[0]).toMatchObject({
      message: rest.json.error.message,
      extensions: { code: rest.json.error.code },
    });

    const big = { query: '{ __typename }', variables: { padding: 'x'.repeat(70 * 1024) } };
    const restBig = await service.call('POST', '/sandbox/customer', { body: big });
    const graphqlBig = await service.call('POST', '/sandbox/graphql', { body: big });
    expect([graphqlBig.status, graphqlBig.json.errors[0].message]).toEqual([
      restBig.status,
      restBig.json.error.message,
    ]);

    const utf16 = { rawBody: '{}', headers: { 'content-type': 'application/json; charset=iso-8859-1' } };
    const restCharset = await service.call('POST', '/sandbox/customer', utf16);
    const graphqlCharset = await service.call('POST', '/sandbox/graphql', utf16);
    expect([
      graphqlCharset.status,
      graphqlCharset.json.errors[0].extensions.code,
      graphqlCharset.json.errors[0].message,
    ]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE', restCharset.json.error.message]);
  });

  it('reads no body before the token is accepted: a broken body with a wrong token is 401, as in REST', async () => {
    const headers = { 'content-type': 'application/json', authorization: 'Bearer not-a-token-of-this-service' };
    const result = await service.call('POST', '/sandbox/graphql', { auth: false, rawBody: '{"query": ', headers });
    expect(result.status).toBe(401);
    expect(errorCodes(result)).toEqual(['UNAUTHENTICATED']);
    const rest = await service.call('POST', '/sandbox/customer', { auth: false, rawBody: '{"firstName": ', headers });
    expect(rest.status).toBe(401);
  });

  it('and no log line of this file contains a test SSN or document locator number', () => {
    expect(service.logLines.length).toBeGreaterThan(10);
    for (const line of service.logLines) assertNoSensitiveValues(line, 'a log line');
  });
});
