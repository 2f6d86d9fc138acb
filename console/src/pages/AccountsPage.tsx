import { useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useState } from 'react';
import { Button, Link } from 'react-aria-components';
import { DataTable } from '../components/DataTable';
import { FormProblems, ProblemTextField } from '../components/FormProblems';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { useCursorStack } from '../components/usePages';
import { enumLabel, money } from '../format';
import { graphql } from '../gql';
import type { AccountFilter, AccountFlag, AccountListQuery } from '../gql/graphql';
import { paths } from '../router';

const PAGE_SIZE = 20;

const AccountList = graphql(`
  query AccountList($first: Int!, $after: String, $filter: AccountFilter) {
    accounts(first: $first, after: $after, filter: $filter) {
      nodes {
        id
        accountId
        name
        type
        currency
        status
        flags
        accountNumberLast4
        balance {
          posted
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const FLAGS: readonly AccountFlag[] = ['FROZEN', 'DEBITS_BLOCKED', 'CREDITS_BLOCKED'];

interface FilterDraft {
  type: string;
  currency: string;
  flag: string;
  externalId: string;
  accountNumberLast4: string;
}
const NO_FILTER: FilterDraft = { type: '', currency: '', flag: '', externalId: '', accountNumberLast4: '' };

const FILTER_LABELS: Readonly<Record<string, string>> = {
  type: 'Type (e.g. CHECKING)',
  currency: 'Currency (e.g. USD)',
  externalId: 'External id',
  accountNumberLast4: 'Account number ends in',
};

/** The filter the API is asked for: blank fields left out; a type and a currency as the API spells them. */
const filterOf = (draft: FilterDraft): AccountFilter => ({
  ...(draft.type.trim() && { type: draft.type.trim().toUpperCase() }),
  ...(draft.currency.trim() && { currency: draft.currency.trim().toUpperCase() }),
  ...(draft.flag && { flag: draft.flag as AccountFlag }),
  ...(draft.externalId.trim() && { externalId: draft.externalId.trim() }),
  ...(draft.accountNumberLast4.trim() && { accountNumberLast4: draft.accountNumberLast4.trim() }),
});

type AccountRow = AccountListQuery['accounts']['nodes'][number];
const column = createColumnHelper<AccountRow>();
const columns = [
  column.accessor('name', {
    header: 'Account',
    cell: (info) => (
      <>
        <Link href={paths.account(info.row.original.accountId)}>{info.getValue()}</Link>
        {info.row.original.status === 'CLOSED' ? (
          <>
            {' '}
            <span className="badge closed">Closed</span>
          </>
        ) : null}
      </>
    ),
  }),
  column.accessor('type', { header: 'Type' }),
  column.accessor((row) => (row.accountNumberLast4 ? `…${row.accountNumberLast4}` : ''), {
    id: 'number',
    header: 'Account number',
  }),
  column.accessor((row) => money(row.balance.posted, row.currency), { id: 'posted', header: 'Posted balance' }),
  column.accessor((row) => row.flags.map(enumLabel).join(', '), { id: 'flags', header: 'Flags' }),
];

/**
 * The environment's accounts, oldest first, a page at a time, filtered by type, currency, a flag set on them, an
 * external id or an account number's last four (the API's `accounts(filter)`, so the list is what REST's `GET /{environment}/account` lists).
 */
export function AccountsPage() {
  const [draft, setDraft] = useState<FilterDraft>(NO_FILTER);
  const [filter, setFilter] = useState<AccountFilter>({});
  const pages = useCursorStack<string>();
  const { data, error, loading } = useQuery(AccountList, {
    variables: { first: PAGE_SIZE, after: pages.current, filter },
  });
  const list = data?.accounts;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    pages.reset();
    setFilter(filterOf(draft));
  };
  return (
    <>
      <h1>Accounts</h1>
      <form onSubmit={apply} className="inline-form filters" aria-label="Account filters">
        <FormProblems error={error} labels={(field) => FILTER_LABELS[field.replace(/^filter\./, '')]}>
          <ProblemTextField
            field="type"
            label={FILTER_LABELS.type}
            value={draft.type}
            onChange={(type) => setDraft({ ...draft, type })}
            maxLength={32}
          />
          <ProblemTextField
            field="currency"
            label={FILTER_LABELS.currency}
            value={draft.currency}
            onChange={(currency) => setDraft({ ...draft, currency })}
            validate={(value) =>
              value.trim() === '' || /^[A-Za-z]{3}$/.test(value.trim()) ? null : 'A currency is three letters.'
            }
          />
          <label className="field">
            Flag set
            <select value={draft.flag} onChange={(event) => setDraft({ ...draft, flag: event.target.value })}>
              <option value="">any</option>
              {FLAGS.map((flag) => (
                <option key={flag} value={flag}>
                  {enumLabel(flag)}
                </option>
              ))}
            </select>
          </label>
          <ProblemTextField
            field="externalId"
            label={FILTER_LABELS.externalId}
            value={draft.externalId}
            onChange={(externalId) => setDraft({ ...draft, externalId })}
            maxLength={128}
          />
          <ProblemTextField
            field="accountNumberLast4"
            label={FILTER_LABELS.accountNumberLast4}
            value={draft.accountNumberLast4}
            onChange={(accountNumberLast4) => setDraft({ ...draft, accountNumberLast4 })}
            inputMode="numeric"
            maxLength={4}
            validate={(value) =>
              value.trim() === '' || /^[0-9]{4}$/.test(value.trim()) ? null : 'The last four digits, e.g. 1234.'
            }
          />
          <Button type="submit">Apply filters</Button>
          <Button
            className="react-aria-Button secondary"
            onPress={() => {
              setDraft(NO_FILTER);
              pages.reset();
              setFilter({});
            }}
          >
            Clear filters
          </Button>
        </FormProblems>
      </form>
      <ProblemMessage error={error} />
      {list ? (
        <DataTable
          caption="Accounts, oldest first"
          columns={columns}
          data={list.nodes}
          empty={loading ? 'Loading…' : 'No account matches.'}
        />
      ) : null}
      <Pager
        label="Account pages"
        hasPrevious={pages.hasPrevious}
        hasNext={list?.pageInfo.hasNextPage ?? false}
        onPrevious={pages.previous}
        onNext={() => pages.next(list!.pageInfo.endCursor!)}
      />
    </>
  );
}
