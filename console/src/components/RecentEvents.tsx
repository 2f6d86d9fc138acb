import { useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-aria-components';
import { instant } from '../format';
import { graphql } from '../gql';
import type { RecentEventRowFragment } from '../gql/graphql';
import { paths } from '../router';
import { DataTable } from './DataTable';
import { ProblemMessage } from './ProblemMessage';

// Read apart from the record's own query: a refusal here (events:read withdrawn) never hides the record.
const CustomerRecentEvents = graphql(`
  query CustomerRecentEvents($customerId: ID!) {
    customer(customerId: $customerId) {
      id
      recentEvents(first: 10) {
        ...RecentEventRow
      }
    }
  }
`);

const AccountRecentEvents = graphql(`
  query AccountRecentEvents($accountId: ID!) {
    account(accountId: $accountId) {
      id
      recentEvents(first: 10) {
        ...RecentEventRow
      }
    }
  }
`);

graphql(`
  fragment RecentEventRow on Event {
    eventId
    sequence
    type
    occurredAt
  }
`);

const column = createColumnHelper<RecentEventRowFragment>();
const columns = [
  column.accessor('type', { header: 'Type' }),
  column.accessor('occurredAt', { header: 'When', cell: (info) => instant(info.getValue()) }),
  column.accessor('sequence', { header: 'Sequence' }),
];

/**
 * The record's newest events (`recentEvents`: type, time, sequence), newest first; the whole feed is on the
 * Events page. Shown only to a token with `events:read` (the caller decides).
 */
export function RecentEvents({
  record,
}: {
  record: { kind: 'customer'; customerId: string } | { kind: 'account'; accountId: string };
}) {
  const customer = useQuery(CustomerRecentEvents, {
    variables: { customerId: record.kind === 'customer' ? record.customerId : '' },
    skip: record.kind !== 'customer',
  });
  const account = useQuery(AccountRecentEvents, {
    variables: { accountId: record.kind === 'account' ? record.accountId : '' },
    skip: record.kind !== 'account',
  });
  const result = record.kind === 'customer' ? customer : account;
  const events =
    record.kind === 'customer' ? customer.data?.customer?.recentEvents : account.data?.account?.recentEvents;
  return (
    <section aria-labelledby="recent-events-heading">
      <h2 id="recent-events-heading">Recent events</h2>
      <ProblemMessage error={result.error} />
      {events ? (
        <DataTable
          caption={`Recent events of this ${record.kind}, newest first`}
          columns={columns}
          data={events}
          empty="No events yet."
        />
      ) : null}
      <p>
        <Link href={paths.events()}>All events</Link>
      </p>
    </section>
  );
}
