import { useQuery } from '@apollo/client/react';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import {
  ComboBox,
  Header,
  Input,
  type Key,
  Label,
  ListBox,
  ListBoxItem,
  ListBoxSection,
  Popover,
  Text,
} from 'react-aria-components';
import { customerKind, customerName, money } from '../format';
import { graphql } from '../gql';
import type { AccountHitFragment, CustomerHitFragment, HolderHitFragment, RecordSearchQuery } from '../gql/graphql';
import { useViewer } from '../viewer';
import { planSearch } from './search-plan';

/** The most of each kind shown: a search box offers a few to pick from, not a list to page through. */
const PER_KIND = 5;
/** How long typing must pause before the API is asked (one request per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 250;

graphql(`
  fragment CustomerHit on Customer {
    id
    customerId
    customerType
    firstName
    middleName
    lastName
    business {
      legalName
    }
    emails
  }
`);

graphql(`
  fragment AccountHit on Account {
    id
    accountId
    name
    type
    currency
    flags
    accountNumberLast4
    balance {
      posted
    }
  }
`);

const RecordSearchQueryDocument = graphql(`
  query RecordSearch(
    $first: Int!
    $byId: Boolean!
    $id: ID!
    $byWord: Boolean!
    $byWordInAccounts: Boolean!
    $word: String
    $byFullName: Boolean!
    $firstName: String
    $lastName: String
    $legalName: String
    $byEmail: Boolean!
    $email: String
    $byPhone: Boolean!
    $phoneNumber: String
    $byHolderWord: Boolean!
    $byHolderFullName: Boolean!
    $byLast4: Boolean!
    $accountNumberLast4: String
  ) {
    node(id: $id) @include(if: $byId) {
      ... on Customer {
        ...CustomerHit
      }
      ... on Account {
        ...AccountHit
      }
    }
    lastNames: customers(first: $first, filter: { lastName: $word }) @include(if: $byWord) {
      nodes {
        ...CustomerHit
      }
    }
    firstNames: customers(first: $first, filter: { firstName: $word }) @include(if: $byWord) {
      nodes {
        ...CustomerHit
      }
    }
    legalNames: customers(first: $first, filter: { legalName: $word }) @include(if: $byWord) {
      nodes {
        ...CustomerHit
      }
    }
    customerExternalIds: customers(first: $first, filter: { externalId: $word }) @include(if: $byWord) {
      nodes {
        ...CustomerHit
      }
    }
    accountExternalIds: accounts(first: $first, filter: { externalId: $word }) @include(if: $byWordInAccounts) {
      nodes {
        ...AccountHit
      }
    }
    accountLast4s: accounts(first: $first, filter: { accountNumberLast4: $accountNumberLast4 }) @include(if: $byLast4) {
      nodes {
        ...AccountHit
      }
    }
    fullNames: customers(first: $first, filter: { firstName: $firstName, lastName: $lastName })
      @include(if: $byFullName) {
      nodes {
        ...CustomerHit
      }
    }
    businessNames: customers(first: $first, filter: { legalName: $legalName }) @include(if: $byFullName) {
      nodes {
        ...CustomerHit
      }
    }
    emails: customers(first: $first, filter: { email: $email }) @include(if: $byEmail) {
      nodes {
        ...CustomerHit
      }
    }
    phones: customers(first: $first, filter: { phoneNumber: $phoneNumber }) @include(if: $byPhone) {
      nodes {
        ...CustomerHit
      }
    }
    holderLastNames: customers(first: 3, filter: { lastName: $word }) @include(if: $byHolderWord) {
      nodes {
        ...HolderHit
      }
    }
    holderLegalNames: customers(first: 3, filter: { legalName: $word }) @include(if: $byHolderWord) {
      nodes {
        ...HolderHit
      }
    }
    holderFullNames: customers(first: 3, filter: { firstName: $firstName, lastName: $lastName })
      @include(if: $byHolderFullName) {
      nodes {
        ...HolderHit
      }
    }
    holderBusinessNames: customers(first: 3, filter: { legalName: $legalName }) @include(if: $byHolderFullName) {
      nodes {
        ...HolderHit
      }
    }
  }
`);

/** A customer found by name in an account picker, with the accounts it holds (an account is found by its holder). */
graphql(`
  fragment HolderHit on Customer {
    id
    customerId
    firstName
    middleName
    lastName
    business {
      legalName
    }
    accounts {
      ...AccountHit
    }
  }
`);

export interface CustomerResult {
  kind: 'customer';
  id: string;
  name: string;
  detail: string;
}
export interface AccountResult {
  kind: 'account';
  id: string;
  name: string;
  detail: string;
}
export type SearchResult = CustomerResult | AccountResult;

function customerResult(customer: CustomerHitFragment): CustomerResult {
  return {
    kind: 'customer',
    id: customer.customerId,
    name: customerName(customer),
    detail: [customerKind(customer.customerType), customer.emails[0]].filter(Boolean).join(' · '),
  };
}

function accountResult(account: AccountHitFragment, holder?: HolderHitFragment): AccountResult {
  return {
    kind: 'account',
    id: account.accountId,
    name: account.name,
    detail: [
      account.type,
      ...(account.accountNumberLast4 ? [`ending ${account.accountNumberLast4}`] : []),
      money(account.balance.posted, account.currency),
      ...account.flags,
      ...(holder ? [`held by ${customerName(holder)}`] : []),
    ].join(' · '),
  };
}

/** The answers in one list per kind, each record once, in the order the API found them. */
export function resultsOf(data: RecordSearchQuery | undefined): {
  customers: CustomerResult[];
  accounts: AccountResult[];
} {
  const customers = new Map<string, CustomerResult>();
  const accounts = new Map<string, AccountResult>();
  if (!data) return { customers: [], accounts: [] };
  const node = data.node;
  if (node && 'customerId' in node) customers.set(node.customerId, customerResult(node));
  if (node && 'accountId' in node) accounts.set(node.accountId, accountResult(node));
  const lists = [
    data.fullNames,
    data.businessNames,
    data.lastNames,
    data.firstNames,
    data.legalNames,
    data.emails,
    data.phones,
    data.customerExternalIds,
  ];
  for (const list of lists)
    for (const hit of list?.nodes ?? [])
      if (!customers.has(hit.customerId)) customers.set(hit.customerId, customerResult(hit));
  for (const hit of [...(data.accountLast4s?.nodes ?? []), ...(data.accountExternalIds?.nodes ?? [])])
    if (!accounts.has(hit.accountId)) accounts.set(hit.accountId, accountResult(hit));
  const holders = [data.holderFullNames, data.holderBusinessNames, data.holderLastNames, data.holderLegalNames];
  for (const list of holders)
    for (const holder of list?.nodes ?? [])
      for (const account of holder.accounts)
        if (!accounts.has(account.accountId)) accounts.set(account.accountId, accountResult(account, holder));
  return {
    customers: [...customers.values()].slice(0, PER_KIND * 2),
    accounts: [...accounts.values()].slice(0, PER_KIND),
  };
}

/** The text typed, once typing has paused for `ms`. */
function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A search-as-you-type combobox over customers and accounts (React Aria's ComboBox: the ARIA combobox pattern,
 * arrow keys, Enter, Escape), results grouped by kind; `kinds` narrows it for a picker. Picking calls `onPick`.
 */
export function RecordSearch({
  label,
  kinds,
  onPick,
  placeholder,
  description,
  inputRef,
  className,
  showLabel = false,
}: {
  label: string;
  kinds: readonly ('customer' | 'account')[];
  onPick(result: SearchResult): void;
  placeholder?: string;
  description?: ReactNode;
  inputRef?: RefObject<HTMLInputElement>;
  className?: string;
  /** A picker in a form shows its label; the header's search is labelled by its placeholder and landmark. */
  showLabel?: boolean;
}) {
  const viewer = useViewer();
  const ownInput = useRef<HTMLInputElement>(null);
  const input = inputRef ?? ownInput;
  const [typed, setTyped] = useState('');
  const settled = useDebounced(typed, SEARCH_DEBOUNCE_MS);
  const plan = planSearch(settled);
  const customers = kinds.includes('customer') && viewer.scopes.has('customers:read');
  const accounts = kinds.includes('account') && viewer.scopes.has('accounts:read');
  const byHolder = accounts && !kinds.includes('customer') && viewer.scopes.has('customers:read');
  const { data, loading } = useQuery(RecordSearchQueryDocument, {
    skip: plan === null || (!customers && !accounts),
    errorPolicy: 'all',
    variables: {
      first: PER_KIND,
      byId: plan?.id !== undefined,
      id: plan?.id ?? '00000000-0000-0000-0000-000000000000',
      byWord: customers && plan?.word !== undefined,
      byWordInAccounts: accounts && plan?.word !== undefined,
      word: plan?.word,
      byFullName: customers && plan?.fullName !== undefined,
      firstName: plan?.fullName?.firstName,
      lastName: plan?.fullName?.lastName,
      legalName: plan?.fullName?.legalName,
      byEmail: customers && plan?.email !== undefined,
      email: plan?.email,
      byPhone: customers && plan?.phoneNumber !== undefined,
      phoneNumber: plan?.phoneNumber,
      // A picker of accounts only (a transfer's target) finds them by their holder's name too.
      byHolderWord: byHolder && plan?.word !== undefined,
      byHolderFullName: byHolder && plan?.fullName !== undefined,
      byLast4: accounts && plan?.accountNumberLast4 !== undefined,
      accountNumberLast4: plan?.accountNumberLast4,
    },
  });
  const waiting = plan !== null && (loading || typed.trim() !== settled.trim());
  // Only answers to what is typed now: while typing goes on or the API is asked, the list says "Searching…".
  const shown = plan === null || waiting ? { customers: [], accounts: [] } : resultsOf(data);
  const customerResults = kinds.includes('customer') ? shown.customers : [];
  const accountResults = kinds.includes('account') ? shown.accounts : [];
  const results = new Map<Key, SearchResult>(
    [...customerResults, ...accountResults].map((result) => [`${result.kind}:${result.id}`, result]),
  );
  const empty =
    plan === null
      ? 'Type two letters or more, an email, a phone number, an id or an account number’s last four.'
      : waiting
        ? 'Searching…'
        : 'Nothing found.';
  return (
    <ComboBox
      className={['record-search', className].filter(Boolean).join(' ')}
      aria-label={label}
      inputValue={typed}
      onInputChange={setTyped}
      // The API chose the results; the box must not hide those whose text does not contain what was typed.
      defaultFilter={() => true}
      menuTrigger="input"
      allowsEmptyCollection
      selectedKey={null}
      onSelectionChange={(key) => {
        // Escape reports no selection: it empties the box too, or React Aria would reopen the list at once (with
        // both the text and the selection controlled, it compares the text with the selection's, which is none).
        if (key === null) return setTyped('');
        const result = results.get(key);
        if (!result) return;
        setTyped('');
        // Leaving the box closes its list: emptied by the pick, it would otherwise stay open with its hint and
        // keep the rest of the page hidden from assistive technology (React Aria hides what is outside it). After
        // a click React Aria puts focus back in the box once this handler returns, so the blur waits for that.
        setTimeout(() => input.current?.blur(), 0);
        onPick(result);
      }}
    >
      <Label className={showLabel ? undefined : 'visually-hidden'}>{label}</Label>
      <Input ref={input} placeholder={placeholder} />
      {description ? (
        <Text slot="description" className="hint">
          {description}
        </Text>
      ) : null}
      <Popover className="record-search-popover" placement="bottom start">
        <ListBox className="record-search-results" renderEmptyState={() => <p className="empty">{empty}</p>}>
          {customerResults.length > 0 ? (
            <ListBoxSection id="customers">
              <Header>Customers</Header>
              {customerResults.map((result) => (
                <ListBoxItem key={result.id} id={`customer:${result.id}`} textValue={result.name}>
                  {/* Plain text, so the option's name is all it shows (WCAG 2.5.3, label in name). */}
                  <span className="result-name">{result.name}</span>
                  <span className="result-detail">{result.detail}</span>
                </ListBoxItem>
              ))}
            </ListBoxSection>
          ) : null}
          {accountResults.length > 0 ? (
            <ListBoxSection id="accounts">
              <Header>Accounts</Header>
              {accountResults.map((result) => (
                <ListBoxItem key={result.id} id={`account:${result.id}`} textValue={result.name}>
                  {/* Plain text, so the option's name is all it shows (WCAG 2.5.3, label in name). */}
                  <span className="result-name">{result.name}</span>
                  <span className="result-detail">{result.detail}</span>
                </ListBoxItem>
              ))}
            </ListBoxSection>
          ) : null}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
