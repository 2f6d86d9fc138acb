import {
  ApolloClient,
  CombinedGraphQLErrors,
  gql,
  HttpLink,
  InMemoryCache,
  type TypedDocumentNode,
} from '@apollo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNoSensitiveValues, buildCustomerInput } from '../support/factories.js';
import { startTestService, type TestService } from '../support/service.js';

/** The full lifecycle driven by a mainstream client (@apollo/client 4, HttpLink over fetch, normalised cache). */
let service: TestService;
let client: ApolloClient;
beforeAll(async () => {
  service = await startTestService();
  client = new ApolloClient({
    link: new HttpLink({
      uri: `${service.url}/sandbox/graphql`,
      headers: { authorization: `Bearer ${service.token}` },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        assertNoSensitiveValues(await response.clone().text(), 'a response to Apollo Client');
        return response;
      },
    }),
    cache: new InMemoryCache(),
  });
});
afterAll(async () => {
  client?.stop();
  await service?.stop();
});

// Result shapes of the operations below (what a frontend would generate with graphql-codegen).
interface CustomerParts {
  __typename?: 'Customer';
  id: string;
  customerId: string;
  accountIds: string[];
  preferredName: string;
  firstName: string;
  middleName: string;
  lastName: string;
  dateOfBirth: string;
  emails: string[];
  phoneNumbers: { type: string; number: string }[];
  addresses: { type: string; street: string; city: string; state: string; zip: string }[];
}
interface AccountParts {
  id: string;
  accountId: string;
  type: string;
  name: string;
  amount: string;
  currency: string;
  customerIds: string[];
  transactions: { nodes: { transactionId: string }[] };
  flags: string[];
}
type Vars = Record<string, unknown>;

const CUSTOMER = gql`
  fragment CustomerParts on Customer {
    id
    customerId
    accountIds
    preferredName
    firstName
    middleName
    lastName
    dateOfBirth
    emails
    phoneNumbers {
      type
      number
    }
    addresses {
      type
      street
      city
      state
      zip
    }
  }
`;
const CREATE_CUSTOMER: TypedDocumentNode<{ createCustomer: CustomerParts }, Vars> = gql`
  mutation CreateCustomer($input: CreateCustomerInput!) {
    createCustomer(input: $input) {
      ...CustomerParts
    }
  }
  ${CUSTOMER}
`;
const CREATE_ACCOUNT: TypedDocumentNode<{ createAccount: AccountParts }, Vars> = gql`
  mutation CreateAccount($input: CreateAccountInput!) {
    createAccount(input: $input) {
      id
      accountId
      type
      name
      amount
      currency
      customerIds
      transactions {
        nodes {
          transactionId
        }
      }
      flags
    }
  }
`;
const CUSTOMER_WITH_ACCOUNTS: TypedDocumentNode<
  {
    customer:
      | (CustomerParts & { accounts: { accountId: string; customers: { customerId: string; firstName: string }[] }[] })
      | null;
  },
  Vars
> = gql`
  query CustomerWithAccounts($id: ID!) {
    customer(customerId: $id) {
      ...CustomerParts
      accounts {
        id
        accountId
        name
        currency
        customers {
          id
          customerId
          firstName
        }
      }
    }
  }
  ${CUSTOMER}
`;
const ACCOUNT_WITH_CUSTOMERS: TypedDocumentNode<
  {
    account: {
      name: string;
      customers: { customerId: string; preferredName: string; accounts: { accountId: string }[] }[];
    } | null;
  },
  Vars
> = gql`
  query AccountWithCustomers($id: ID!) {
    account(accountId: $id) {
      id
      accountId
      name
      customers {
        id
        customerId
        preferredName
        accounts {
          id
          accountId
        }
      }
    }
  }
`;

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    if (CombinedGraphQLErrors.is(error)) return error.errors[0]?.extensions?.code as string | undefined;
    throw error;
  }
  return undefined;
}

describe('Apollo Client drives the whole lifecycle', () => {
  it('creates, reads both ways, updates, is refused, deletes', async () => {
    const aliceInput = buildCustomerInput({
      preferredName: 'Alice',
      firstName: 'Alice',
      middleName: '',
      lastName: 'Archer',
    });
    const bobInput = buildCustomerInput({
      preferredName: 'Bob',
      firstName: 'Robert',
      lastName: 'Baker',
      emails: [],
      phoneNumbers: [],
      addresses: [],
    });

    // Create two customers; the response carries the customer but never the identifiers sent.
    const alice = (await client.mutate({ mutation: CREATE_CUSTOMER, variables: { input: aliceInput } })).data!
      .createCustomer;
    const bob = (await client.mutate({ mutation: CREATE_CUSTOMER, variables: { input: bobInput } })).data!
      .createCustomer;
    const { socialSecurityNumber: _ssn, documentLocatorNumber: _dln, ...aliceVisible } = aliceInput;
    expect(alice).toEqual({
      __typename: 'Customer',
      id: alice.customerId,
      customerId: alice.customerId,
      accountIds: [],
      ...aliceVisible,
      phoneNumbers: aliceInput.phoneNumbers.map((p) => ({ __typename: 'Phone', ...p })),
      addresses: aliceInput.addresses.map((a) => ({ __typename: 'Address', ...a })),
    });

    // One account shared by both.
    const account = (
      await client.mutate({
        mutation: CREATE_ACCOUNT,
        variables: {
          input: {
            associatedCustomerIds: [alice.customerId, bob.customerId],
            name: 'Joint Checking',
            currency: 'USD',
            type: 'CHECKING',
          },
        },
      })
    ).data!.createAccount;
    expect(account).toEqual({
      __typename: 'Account',
      id: account.accountId,
      accountId: account.accountId,
      type: 'CHECKING',
      name: 'Joint Checking',
      amount: '0',
      currency: 'USD',
      customerIds: [alice.customerId, bob.customerId],
      transactions: { __typename: 'TransactionConnection', nodes: [] },
      flags: [],
    });

    // Nested reads, customer -> accounts -> customers and account -> customers -> accounts.
    const aliceRead = (
      await client.query({
        query: CUSTOMER_WITH_ACCOUNTS,
        variables: { id: alice.customerId },
        fetchPolicy: 'network-only',
      })
    ).data!.customer!;
    expect(aliceRead.accountIds).toEqual([account.accountId]);
    expect(aliceRead.accounts.map((a) => a.customers.map((c) => c.firstName))).toEqual([['Alice', 'Robert']]);
    const accountRead = (
      await client.query({
        query: ACCOUNT_WITH_CUSTOMERS,
        variables: { id: account.accountId },
        fetchPolicy: 'network-only',
      })
    ).data!.account!;
    expect(accountRead.customers.map((c) => [c.customerId, c.accounts.map((a) => a.accountId)])).toEqual([
      [alice.customerId, [account.accountId]],
      [bob.customerId, [account.accountId]],
    ]);

    // Updates; the normalised cache (keyed by `id`) sees them without refetching.
    const UPDATE_CUSTOMER = gql`
      mutation UpdateCustomer($id: ID!, $input: UpdateCustomerInput!) {
        updateCustomer(customerId: $id, input: $input) {
          id
          customerId
          preferredName
          emails
        }
      }
    `;
    await client.mutate({
      mutation: UPDATE_CUSTOMER,
      variables: { id: bob.customerId, input: { preferredName: 'Bobby', emails: ['bobby@example.com'] } },
    });
    const UPDATE_ACCOUNT: TypedDocumentNode<{ updateAccount: AccountParts }, Vars> = gql`
      mutation UpdateAccount($id: ID!, $input: UpdateAccountInput!) {
        updateAccount(accountId: $id, input: $input) {
          id
          accountId
          name
          currency
          type
        }
      }
    `;
    const renamed = (
      await client.mutate({
        mutation: UPDATE_ACCOUNT,
        variables: { id: account.accountId, input: { name: 'Household', currency: 'EUR' } },
      })
    ).data!.updateAccount;
    expect(renamed).toMatchObject({ name: 'Household', currency: 'EUR', type: 'CHECKING' });
    const cached = client.readQuery({ query: ACCOUNT_WITH_CUSTOMERS, variables: { id: account.accountId } })!.account!;
    expect(cached.name).toBe('Household');
    expect(cached.customers[1]!.preferredName).toBe('Bobby');

    // The refused delete, then the deletes in the only order the rules allow.
    const DELETE_CUSTOMER = gql`
      mutation DeleteCustomer($id: ID!) {
        deleteCustomer(customerId: $id)
      }
    `;
    const DELETE_ACCOUNT = gql`
      mutation DeleteAccount($id: ID!) {
        deleteAccount(accountId: $id)
      }
    `;
    expect(await codeOf(client.mutate({ mutation: DELETE_CUSTOMER, variables: { id: alice.customerId } }))).toBe(
      'CUSTOMER_HAS_ACCOUNTS',
    );
    expect((await client.mutate({ mutation: DELETE_ACCOUNT, variables: { id: account.accountId } })).data).toEqual({
      deleteAccount: account.accountId,
    });
    for (const customer of [alice, bob]) {
      expect((await client.mutate({ mutation: DELETE_CUSTOMER, variables: { id: customer.customerId } })).data).toEqual(
        { deleteCustomer: customer.customerId },
      );
    }
    const gone = await client.query({
      query: CUSTOMER_WITH_ACCOUNTS,
      variables: { id: alice.customerId },
      fetchPolicy: 'network-only',
    });
    expect(gone.data).toEqual({ customer: null });
    expect(await codeOf(client.mutate({ mutation: DELETE_ACCOUNT, variables: { id: account.accountId } }))).toBe(
      'ACCOUNT_NOT_FOUND',
    );
    const { rows } = await service.database.pool.query(
      'SELECT (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM accounts)::int AS accounts',
    );
    expect(rows[0]).toEqual({ customers: 0, accounts: 0 });
  });
});
