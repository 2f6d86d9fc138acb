import { useLazyQuery, useQuery } from '@apollo/client/react';
import { type FormEvent, useState } from 'react';
import { Button, Input, Label, Link, SearchField, TextField } from 'react-aria-components';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { useCursorStack } from '../components/usePages';
import { fullName } from '../format';
import { graphql } from '../gql';
import type { CustomerFilter } from '../gql/graphql';
import { paths } from '../router';
import { useCan } from '../viewer';

/** The fields a result shows; the queries below spread it. */
export const CustomerListItem = graphql(`
  fragment CustomerListItem on Customer {
    id
    customerId
    firstName
    middleName
    lastName
    dateOfBirth
  }
`);

const FindCustomers = graphql(`
  query FindCustomers($filter: CustomerFilter, $after: String) {
    customers(first: 20, after: $after, filter: $filter) {
      nodes {
        ...CustomerListItem
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

// The number is a variable (never in the query text, a URL or browser storage), and the answer is not cached.
const SearchBySsn = graphql(`
  query SearchCustomersBySsn($input: CustomerSearchInput!) {
    searchCustomers(input: $input, first: 20) {
      nodes {
        ...CustomerListItem
      }
    }
  }
`);

type Listed = { customerId: string; firstName: string; middleName: string; lastName: string; dateOfBirth: string };

type SearchBy = 'name' | 'phoneNumber' | 'externalId';
const SEARCH_BY: { by: SearchBy; label: string; placeholder: string }[] = [
  { by: 'name', label: 'Last name or email', placeholder: 'Last name or email' },
  { by: 'phoneNumber', label: 'Phone number', placeholder: '+1 555 123 4567' },
  { by: 'externalId', label: 'External id', placeholder: 'Your own id' },
];

/**
 * The API's `customers(filter:)` for what was typed: a last-name prefix, or an email address when the text has
 * an @; a phone number (compared in E.164 by the API); or exactly an external id.
 */
function filterFor(text: string, by: SearchBy): CustomerFilter | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  if (by === 'phoneNumber') return { phoneNumber: value };
  if (by === 'externalId') return { externalId: value };
  return value.includes('@') ? { email: value } : { lastName: value };
}

function Results({ customers, label }: { customers: Listed[]; label: string }) {
  if (customers.length === 0) return <p className="empty">No customers match.</p>;
  return (
    <ul className="results" aria-label={label}>
      {customers.map((customer) => (
        <li key={customer.customerId}>
          <Link href={paths.customer(customer.customerId)}>{fullName(customer)}</Link>{' '}
          <span className="muted">born {customer.dateOfBirth}</span>
        </li>
      ))}
    </ul>
  );
}

export function CustomersPage() {
  const canCreate = useCan('customers:write');
  // A search by number is its own scope (customers:ssn_search), not every reader's: offered only to the tokens that hold it.
  const canSearchBySsn = useCan('customers:ssn_search');
  const [text, setText] = useState('');
  const [by, setBy] = useState<SearchBy>('name');
  const [filter, setFilter] = useState<CustomerFilter | undefined>(undefined);
  const pages = useCursorStack<string>();
  const list = useQuery(FindCustomers, { variables: { filter, after: pages.current } });

  const [ssn, setSsn] = useState('');
  const [searchBySsn, bySsn] = useLazyQuery(SearchBySsn, { fetchPolicy: 'no-cache' });
  const submitSsn = (event: FormEvent) => {
    event.preventDefault();
    const socialSecurityNumber = ssn.trim();
    if (socialSecurityNumber === '') return;
    setSsn('');
    void searchBySsn({ variables: { input: { socialSecurityNumber } } }).catch(() => undefined);
  };

  const listed = (list.data?.customers.nodes ?? []) as Listed[];
  return (
    <>
      <h1>Customers</h1>
      {canCreate ? (
        <p className="header-actions">
          <Link href={paths.newCustomer()}>New customer</Link>
        </p>
      ) : null}
      <section aria-labelledby="find-heading">
        <h2 id="find-heading">Find customers</h2>
        <div className="field">
          <label htmlFor="search-by">Search by</label>
          <select id="search-by" value={by} onChange={(event) => setBy(event.target.value as SearchBy)}>
            {SEARCH_BY.map((option) => (
              <option key={option.by} value={option.by}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <SearchField
          className="field"
          value={text}
          onChange={setText}
          onSubmit={() => {
            pages.reset();
            setFilter(filterFor(text, by));
          }}
          onClear={() => {
            pages.reset();
            setFilter(undefined);
          }}
        >
          <Label>Search customers</Label>
          <Input placeholder={SEARCH_BY.find((option) => option.by === by)!.placeholder} />
        </SearchField>
        <ProblemMessage error={list.error} />
        {list.data ? <Results customers={listed} label={filter ? 'Matching customers' : 'All customers'} /> : null}
        <Pager
          label="Customer pages"
          hasPrevious={pages.hasPrevious}
          hasNext={list.data?.customers.pageInfo.hasNextPage ?? false}
          onPrevious={pages.previous}
          onNext={() => pages.next(list.data!.customers.pageInfo.endCursor!)}
        />
      </section>
      {canSearchBySsn ? (
        <section aria-labelledby="ssn-heading">
          <h2 id="ssn-heading">Find by social security number</h2>
          <form onSubmit={submitSsn} className="inline-form">
            {/* Masked text, not a password field: a browser's password manager must not offer to keep the number. */}
            <TextField className="field" value={ssn} onChange={setSsn} autoComplete="off">
              <Label>Social security number</Label>
              <Input className="react-aria-Input masked" spellCheck={false} autoCorrect="off" autoCapitalize="off" />
            </TextField>
            <Button type="submit">Find by number</Button>
          </form>
          <ProblemMessage error={bySsn.error} />
          {bySsn.data ? (
            <Results customers={bySsn.data.searchCustomers.nodes as Listed[]} label="Customers with this number" />
          ) : null}
        </section>
      ) : null}
    </>
  );
}
