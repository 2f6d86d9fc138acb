import { useQuery } from '@apollo/client/react';
import { Link } from 'react-aria-components';
import { ProblemMessage } from '../components/ProblemMessage';
import { fullName, money } from '../format';
import { graphql } from '../gql';
import { paths } from '../router';
import { useCan } from '../viewer';

const CustomerDetails = graphql(`
  query CustomerDetails($customerId: ID!, $withAccounts: Boolean!) {
    customer(customerId: $customerId) {
      id
      customerId
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
      accounts @include(if: $withAccounts) {
        id
        accountId
        name
        type
        currency
        amount
        flags
      }
    }
  }
`);

export function CustomerPage({ customerId }: { customerId: string }) {
  const withAccounts = useCan('accounts:read');
  const { data, error, loading } = useQuery(CustomerDetails, { variables: { customerId, withAccounts } });
  const customer = data?.customer;
  if (!customer) {
    return (
      <>
        <h1>{loading ? 'Customer' : 'Customer not found'}</h1>
        <ProblemMessage error={error} />
      </>
    );
  }
  return (
    <>
      <h1>{fullName(customer)}</h1>
      <ProblemMessage error={error} />
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <dl className="facts">
          <dt>Preferred name</dt>
          <dd>{customer.preferredName}</dd>
          <dt>Date of birth</dt>
          <dd>{customer.dateOfBirth}</dd>
          <dt>Emails</dt>
          <dd>{customer.emails.join(', ') || 'none'}</dd>
          <dt>Phone numbers</dt>
          <dd>{customer.phoneNumbers.map((phone) => `${phone.number} (${phone.type})`).join(', ') || 'none'}</dd>
          <dt>Addresses</dt>
          <dd>
            {customer.addresses.length === 0
              ? 'none'
              : customer.addresses.map((address, index) => (
                  <span key={index} className="address">
                    {address.street}, {address.city}, {address.state} {address.zip} ({address.type})
                  </span>
                ))}
          </dd>
          <dt>Customer id</dt>
          <dd>
            <code>{customer.customerId}</code>
          </dd>
        </dl>
      </section>
      {customer.accounts ? (
        <section aria-labelledby="accounts-heading">
          <h2 id="accounts-heading">Accounts</h2>
          {customer.accounts.length === 0 ? (
            <p className="empty">No accounts.</p>
          ) : (
            <ul className="results">
              {customer.accounts.map((account) => (
                <li key={account.accountId}>
                  <Link href={paths.account(account.accountId)}>{account.name}</Link>{' '}
                  <span className="muted">
                    {account.type}, {money(account.amount, account.currency)}
                    {account.flags.length > 0 ? `, ${account.flags.join(', ')}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
    </>
  );
}
