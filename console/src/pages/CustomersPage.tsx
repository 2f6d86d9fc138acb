import { useLazyQuery, useQuery } from '@apollo/client/react';
import { type FormEvent, useState } from 'react';
import { Button, Input, Label, Link, SearchField, TextField } from 'react-aria-components';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { useCursorStack } from '../components/usePages';
import { customerKind, customerName } from '../format';
import { graphql } from '../gql';
import type { CustomerFilter, CustomerType } from '../gql/graphql';
import { paths } from '../router';
import { useCan } from '../viewer';

/** The fields a result shows; the queries below spread it. */
export const CustomerListItem = graphql(`
  fragment CustomerListItem on Customer {
    id
    customerId
    customerType
    business {
      legalName
      doingBusinessAs
    }
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

type Listed = {
  customerId: string;
  customerType: string;
  business?: { legalName: string; doingBusinessAs?: string | null } | null;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
};

type SearchBy = 'name' | 'phoneNumber' | 'externalId';
const SEARCH_BY: { by: SearchBy; label: string; placeholder: string }[] = [
  { by: 'name', label: 'Name or email', placeholder: 'Last name, legal name or email' },
  { by: 'phoneNumber', label: 'Phone number', placeholder: '+1 555 123 4567' },
  { by: 'externalId', label: 'External id', placeholder: 'Your own id' },
];

type Kind = 'ALL' | CustomerType;
const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'ALL', label: 'All customers' },
  { kind: 'INDIVIDUAL', label: 'Individuals' },
  { kind: 'BUSINESS', label: 'Businesses' },
];

/** One list of the page: its filter, what it is called, and its pager's name. */
interface Listing {
  filter: CustomerFilter | undefined;
  label: string;
  pagerLabel: string;
  /** What an empty list says. */
  empty: string;
}

/**
 * The API's `customers(filter:)` lists for what was typed and the kind chosen. A name (text without an @) is a
 * prefix of a person's last name (`lastName`) and of a business's legal name (`legalName`): the API's filters
 * all have to hold, so with every kind chosen that is two lists, people then businesses, each paged on its own.
 * An email address (text with an @), a phone number (compared in E.164 by the API) or an external id is one list.
 */
function listingsFor(text: string, by: SearchBy, kind: Kind): Listing[] {
  const value = text.trim();
  const customerType = kind === 'ALL' ? {} : { customerType: kind };
  const one = (filter: CustomerFilter | undefined): Listing[] => [
    {
      filter,
      label:
        value === ''
          ? kind === 'ALL'
            ? 'All customers'
            : KINDS.find((k) => k.kind === kind)!.label
          : 'Matching customers',
      pagerLabel: 'Customer pages',
      empty: 'No customers match.',
    },
  ];
  if (value === '') return one(kind === 'ALL' ? undefined : customerType);
  if (by === 'phoneNumber') return one({ ...customerType, phoneNumber: value });
  if (by === 'externalId') return one({ ...customerType, externalId: value });
  if (value.includes('@')) return one({ ...customerType, email: value });
  if (kind === 'INDIVIDUAL') return one({ customerType: 'INDIVIDUAL', lastName: value });
  if (kind === 'BUSINESS') return one({ customerType: 'BUSINESS', legalName: value });
  return [
    {
      filter: { lastName: value },
      label: 'Matching people',
      pagerLabel: 'Pages of matching people',
      empty: 'No person has a last name starting so.',
    },
    {
      filter: { legalName: value },
      label: 'Matching businesses',
      pagerLabel: 'Pages of matching businesses',
      empty: 'No business has a legal name starting so.',
    },
  ];
}

/** Each customer with its kind in words, as a link to its page; a person's date of birth, a business's trading name. */
function Results({
  customers,
  label,
  empty = 'No customers match.',
}: {
  customers: Listed[];
  label: string;
  empty?: string;
}) {
  if (customers.length === 0) return <p className="empty">{empty}</p>;
  return (
    <ul className="results" aria-label={label}>
      {customers.map((customer) => (
        <li key={customer.customerId}>
          <span className={`kind kind-${customer.customerType.toLowerCase()}`}>
            {customerKind(customer.customerType)}
          </span>{' '}
          <Link href={paths.customer(customer.customerId)}>{customerName(customer)}</Link>{' '}
          <span className="muted">
            {customer.business
              ? customer.business.doingBusinessAs
                ? `doing business as ${customer.business.doingBusinessAs}`
                : ''
              : `born ${customer.dateOfBirth}`}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** One list of customers a page at a time. */
function CustomerList({ listing }: { listing: Listing }) {
  const pages = useCursorStack<string>();
  const list = useQuery(FindCustomers, { variables: { filter: listing.filter, after: pages.current } });
  return (
    <>
      <ProblemMessage error={list.error} />
      {list.data ? (
        <Results customers={list.data.customers.nodes as Listed[]} label={listing.label} empty={listing.empty} />
      ) : null}
      <Pager
        label={listing.pagerLabel}
        hasPrevious={pages.hasPrevious}
        hasNext={list.data?.customers.pageInfo.hasNextPage ?? false}
        onPrevious={pages.previous}
        onNext={() => pages.next(list.data!.customers.pageInfo.endCursor!)}
      />
    </>
  );
}

export function CustomersPage() {
  const canCreate = useCan('customers:write');
  // A search by number is its own scope (customers:ssn_search), not every reader's: offered only to the tokens that hold it.
  const canSearchBySsn = useCan('customers:ssn_search');
  const [text, setText] = useState('');
  const [by, setBy] = useState<SearchBy>('name');
  const [kind, setKind] = useState<Kind>('ALL');
  // What was searched, as submitted: the kind applies at once, a new text or "search by" on the next submit.
  const [searched, setSearched] = useState<{ text: string; by: SearchBy }>({ text: '', by: 'name' });
  const listings = listingsFor(searched.text, searched.by, kind);

  const [ssn, setSsn] = useState('');
  const [searchBySsn, bySsn] = useLazyQuery(SearchBySsn, { fetchPolicy: 'no-cache' });
  const submitSsn = (event: FormEvent) => {
    event.preventDefault();
    const socialSecurityNumber = ssn.trim();
    if (socialSecurityNumber === '') return;
    setSsn('');
    void searchBySsn({ variables: { input: { socialSecurityNumber } } }).catch(() => undefined);
  };

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
          onSubmit={() => setSearched({ text, by })}
          onClear={() => setSearched({ text: '', by })}
        >
          <Label>Search customers</Label>
          <Input placeholder={SEARCH_BY.find((option) => option.by === by)!.placeholder} />
        </SearchField>
        <div className="field">
          <label htmlFor="customer-kind">Kind of customer</label>
          <select id="customer-kind" value={kind} onChange={(event) => setKind(event.target.value as Kind)}>
            {KINDS.map((option) => (
              <option key={option.kind} value={option.kind}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        {listings.map((listing) => (
          // A new filter is a new list from its first page.
          <CustomerList key={JSON.stringify(listing.filter ?? null)} listing={listing} />
        ))}
      </section>
      {canSearchBySsn ? (
        <section aria-labelledby="ssn-heading">
          <h2 id="ssn-heading">Find by social security number</h2>
          <form onSubmit={submitSsn} className="inline-form" data-reads>
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
