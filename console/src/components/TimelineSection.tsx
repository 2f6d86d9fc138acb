import { useApolloClient, useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Button, Link } from 'react-aria-components';
import { offerBlob } from '../api/download';
import { enumLabel, instant, money } from '../format';
import { graphql } from '../gql';
import type { TimelineEntryItemFragment, TimelineKind } from '../gql/graphql';
import { paths } from '../router';
import { DataTable } from './DataTable';
import { Pager } from './Pager';
import { ProblemMessage } from './ProblemMessage';
import { useCursorStack } from './usePages';

/** Every kind, in the order the filter shows them (the API's TimelineKind). */
const KINDS: readonly TimelineKind[] = ['PROFILE', 'ACCOUNT', 'MONEY', 'FLAG', 'VERIFICATION', 'NOTE'];
const PAGE_SIZE = 25;
/** The export reads the timeline a page of 100 at a time, up to this many entries (said beside the button). */
const EXPORT_LIMIT = 2000;

graphql(`
  fragment TimelineEntryItem on TimelineEntry {
    id
    at
    kind
    operation
    actorId
    actorName
    recordType
    recordId
    accountId
    changedFields
    flag
    reason
    text
    amount
    currency
    direction
    status
  }
`);

const CustomerTimeline = graphql(`
  query CustomerTimeline($customerId: ID!, $first: Int!, $after: String, $kinds: [TimelineKind!]) {
    customer(customerId: $customerId) {
      id
      timeline(first: $first, after: $after, kinds: $kinds) {
        nodes {
          ...TimelineEntryItem
        }
        omittedKinds
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

const OPERATION_WORDS: Readonly<Record<string, string>> = {
  'customer.create': 'Customer created',
  'customer.update': 'Profile changed',
  'customer.archive': 'Customer archived',
  'customer.beneficial_owner.add': 'Beneficial owner added',
  'customer.beneficial_owner.remove': 'Beneficial owner removed',
  'account.create': 'Account opened',
  'account.update': 'Account changed',
  'account.close': 'Account closed',
  'account.reopen': 'Account reopened',
  'account.customer.add': 'Holder added',
  'account.customer.remove': 'Holder removed',
  'account.customer.role.set': 'Holder role changed',
  'account.overdraft_limit.set': 'Overdraft limit set',
  'account.mark_inactive': 'Account became inactive',
  'account.mark_dormant': 'Account became dormant',
  'account.escheatment_notice': 'Escheatment due-diligence window began',
  'account.reactivate': 'Account reactivated',
  'account.flag.set': 'Flag set',
  'account.flag.clear': 'Flag lifted',
  'account.flag.expire': 'Flag lifted at its end',
  'customer.verification.check': 'Verification check requested',
  'customer.verification.result': 'Verification result',
  'customer.verification.decide': 'Verification decided',
  'customer.verification.owner_rejected': 'A beneficial owner was rejected',
  'customer.verification.document_upload': 'Document uploaded',
  'customer.verification.document_review': 'Document reviewed',
  'customer.note.add': 'Note on the customer',
  'account.note.add': 'Note on an account',
};

/** What happened, in words: the operation, and what its record adds (the fields, the flag and why, the money, the note). */
export function describeEntry(entry: TimelineEntryItemFragment): string {
  if (entry.kind === 'MONEY') {
    const amount = entry.amount && entry.currency ? money(entry.amount, entry.currency) : '';
    const way = entry.direction === 'IN' ? 'Money in' : 'Money out';
    return `${way} ${amount} (${enumLabel(entry.status ?? '').toLowerCase()})`;
  }
  const words = OPERATION_WORDS[entry.operation] ?? entry.operation;
  if (entry.kind === 'FLAG')
    return `${words}: ${enumLabel(entry.flag ?? '')}${entry.reason ? `, "${entry.reason}"` : ''}`;
  if (entry.kind === 'NOTE') return `${words}: ${entry.text ?? ''}`;
  return entry.changedFields.length > 0 ? `${words}: ${entry.changedFields.join(', ')}` : words;
}

/** Who did it: the name the record kept, else the principal as the audit trail names it; money is not attributed. */
const actorOf = (entry: TimelineEntryItemFragment): string => entry.actorName ?? entry.actorId ?? '';

/** The page an entry links to: its account's, else the customer's own (the page already shown). */
function EntryRecord({ entry }: { entry: TimelineEntryItemFragment }) {
  if (entry.accountId) return <Link href={paths.account(entry.accountId)}>Account {entry.accountId.slice(0, 8)}</Link>;
  return <span>{enumLabel(entry.recordType.replaceAll('_', ' '))}</span>;
}

const column = createColumnHelper<TimelineEntryItemFragment>();
const columns = [
  column.accessor('at', { header: 'When', cell: (info) => instant(info.getValue()) }),
  column.accessor('kind', { header: 'Kind', cell: (info) => enumLabel(info.getValue()) }),
  column.display({ id: 'what', header: 'What', cell: (info) => describeEntry(info.row.original) }),
  column.display({ id: 'who', header: 'By', cell: (info) => actorOf(info.row.original) }),
  column.display({ id: 'record', header: 'Record', cell: (info) => <EntryRecord entry={info.row.original} /> }),
];

/**
 * A cell as CSV (RFC 4180: quoted, quotes doubled). A cell a spreadsheet would run as a formula (=, +, -, @, a tab
 * or a carriage return first) is prefixed with an apostrophe: a name or a note typed by anyone must not run.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

const CSV_HEADER = [
  'at',
  'kind',
  'operation',
  'what',
  'actor',
  'recordType',
  'recordId',
  'accountId',
  'amount',
  'currency',
  'direction',
  'status',
];

function csvOf(entries: readonly TimelineEntryItemFragment[]): string {
  const rows = entries.map((entry) =>
    [
      entry.at,
      entry.kind,
      entry.operation,
      describeEntry(entry),
      actorOf(entry),
      entry.recordType,
      entry.recordId,
      entry.accountId ?? '',
      entry.amount ?? '',
      entry.currency ?? '',
      entry.direction ?? '',
      entry.status ?? '',
    ]
      .map(csvCell)
      .join(','),
  );
  return [CSV_HEADER.join(','), ...rows].join('\r\n') + '\r\n';
}

/**
 * A customer's timeline, newest first (docs/customer-timeline.md): a filter by kind, a page at a time, and a CSV
 * export of every entry the filter selects (up to EXPORT_LIMIT). Shown with `audit:read`; the kinds the token may
 * not read are named, not shown.
 */
export function TimelineSection({ customerId }: { customerId: string }) {
  const [kinds, setKinds] = useState<readonly TimelineKind[]>(KINDS);
  const pages = useCursorStack<string>();
  const client = useApolloClient();
  const [exporting, setExporting] = useState<{ state: 'idle' | 'running' | 'done'; count?: number; error?: unknown }>({
    state: 'idle',
  });
  const { data, error } = useQuery(CustomerTimeline, {
    variables: { customerId, first: PAGE_SIZE, after: pages.current, kinds: [...kinds] },
    skip: kinds.length === 0,
  });
  const connection = data?.customer?.timeline;
  const entries = (connection?.nodes ?? []) as TimelineEntryItemFragment[];
  const toggle = (kind: TimelineKind, on: boolean) => {
    pages.reset();
    setExporting({ state: 'idle' });
    setKinds((current) => KINDS.filter((each) => (each === kind ? on : current.includes(each))));
  };
  const exportCsv = async () => {
    setExporting({ state: 'running' });
    try {
      const all: TimelineEntryItemFragment[] = [];
      let after: string | undefined;
      do {
        const page = await client.query({
          query: CustomerTimeline,
          variables: { customerId, first: 100, after, kinds: [...kinds] },
          fetchPolicy: 'network-only',
        });
        const timeline = page.data?.customer?.timeline;
        if (!timeline) break;
        all.push(...(timeline.nodes as TimelineEntryItemFragment[]));
        after = timeline.pageInfo.hasNextPage ? (timeline.pageInfo.endCursor ?? undefined) : undefined;
      } while (after !== undefined && all.length < EXPORT_LIMIT);
      offerBlob(new Blob([csvOf(all.slice(0, EXPORT_LIMIT))], { type: 'text/csv' }), `timeline-${customerId}.csv`);
      setExporting({ state: 'done', count: Math.min(all.length, EXPORT_LIMIT) });
    } catch (problem) {
      setExporting({ state: 'idle', error: problem });
    }
  };
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <fieldset className="kind-filter">
        <legend>Show</legend>
        {KINDS.map((kind) => (
          <label key={kind} className="checkbox">
            <input
              type="checkbox"
              checked={kinds.includes(kind)}
              onChange={(event) => toggle(kind, event.target.checked)}
            />{' '}
            {enumLabel(kind)}
          </label>
        ))}
      </fieldset>
      {connection && connection.omittedKinds.length > 0 ? (
        <p className="muted">
          Not shown (your token may not read them): {connection.omittedKinds.map(enumLabel).join(', ')}.
        </p>
      ) : null}
      <ProblemMessage error={error ?? exporting.error} />
      {kinds.length === 0 ? <p className="empty">Choose at least one kind.</p> : null}
      {connection ? (
        <DataTable
          caption="The customer's timeline, newest first"
          columns={columns}
          data={entries}
          empty="Nothing matches."
        />
      ) : null}
      <Pager
        label="Timeline pages"
        hasPrevious={pages.hasPrevious}
        hasNext={connection?.pageInfo.hasNextPage ?? false}
        onPrevious={pages.previous}
        onNext={() => pages.next(connection!.pageInfo.endCursor!)}
      />
      {kinds.length > 0 ? (
        <p>
          <Button
            className="react-aria-Button secondary"
            isDisabled={exporting.state === 'running'}
            onPress={() => void exportCsv()}
          >
            Download CSV
          </Button>{' '}
          <span className="hint">
            Every entry shown by this filter, newest first, up to {EXPORT_LIMIT.toLocaleString('en-US')}.
          </span>
          {exporting.state === 'done' ? (
            <span role="status" className="done">
              {' '}
              {exporting.count} entries downloaded.
            </span>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}
