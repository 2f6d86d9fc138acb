import type { CallResult, TestService } from '../support/service.js';

/** POSTs one GraphQL operation to /{environment}/graphql through the harness (which scans responses for SSNs). */
export function graphql(
  service: TestService,
  query: string,
  variables?: Record<string, unknown>,
  options: { environment?: string; headers?: Record<string, string>; auth?: boolean; operationName?: string } = {},
): Promise<CallResult> {
  return service.call('POST', `/${options.environment ?? 'sandbox'}/graphql`, {
    body: {
      query,
      ...(variables && { variables }),
      ...(options.operationName && { operationName: options.operationName }),
    },
    headers: options.headers,
    auth: options.auth,
  });
}

/** The codes of a response's errors, in order. */
export const errorCodes = (result: CallResult): string[] =>
  ((result.json?.errors ?? []) as { extensions?: { code?: string } }[]).map(
    (error) => error.extensions?.code ?? '<none>',
  );

export const CUSTOMER_FIELDS = `
  id customerId accountIds preferredName firstName middleName lastName dateOfBirth emails
  phoneNumbers { type number } addresses { type street city state zip }
`;

export const ACCOUNT_FIELDS = `id accountId type name amount currency customerIds transactions { nodes { transactionId } } flags`;

export const CREATE_CUSTOMER = `mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { ${CUSTOMER_FIELDS} } }`;
export const CREATE_ACCOUNT = `mutation CreateAccount($input: CreateAccountInput!) { createAccount(input: $input) { ${ACCOUNT_FIELDS} } }`;

/** Creates a customer through GraphQL and returns its id; fails loudly on any error. */
export async function createCustomer(service: TestService, input: unknown, environment = 'sandbox'): Promise<string> {
  const result = await graphql(service, CREATE_CUSTOMER, { input }, { environment });
  if (result.status !== 200 || result.json?.errors)
    throw new Error(`createCustomer failed: ${result.status} ${JSON.stringify(errorCodes(result))}`);
  return result.json.data.createCustomer.customerId as string;
}

export async function createAccount(service: TestService, input: unknown, environment = 'sandbox'): Promise<string> {
  const result = await graphql(service, CREATE_ACCOUNT, { input }, { environment });
  if (result.status !== 200 || result.json?.errors)
    throw new Error(`createAccount failed: ${result.status} ${JSON.stringify(errorCodes(result))}`);
  return result.json.data.createAccount.accountId as string;
}
