import { useQuery, useSubscription } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Input, Label, SearchField, Switch } from 'react-aria-components';
import { DataTable } from '../components/DataTable';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { useCursorStack } from '../components/usePages';
import { instant } from '../format';
import { graphql } from '../gql';
import type { EventListQuery } from '../gql/graphql';

const EventList = graphql(`
  query EventList($after: SafeInt, $types: [String!]) {
    events(after: $after, types: $types, first: 20) {
      events {
        eventId
        sequence
        type
        occurredAt
        resourceType
        resourceId
        changedFields
      }
      nextAfter
    }
  }
`);

// The same fields as a page, so a live event is a row like any other.
const LiveEvents = graphql(`
  subscription LiveEvents($types: [String!]) {
    events(types: $types) {
      eventId
      sequence
      type
      occurredAt
      resourceType
      resourceId
      changedFields
    }
  }
`);

/** The most live events kept on the page (older ones stay readable in the pages below). */
const LIVE_ROWS = 50;

type EventRow = EventListQuery['events']['events'][number];
const column = createColumnHelper<EventRow>();
const columns = [
  column.accessor('sequence', { header: 'Sequence' }),
  column.accessor('occurredAt', { header: 'When', cell: (info) => instant(info.getValue()) }),
  column.accessor('type', { header: 'Type' }),
  column.accessor('resourceId', { header: 'Resource', cell: (info) => <code>{info.getValue()}</code> }),
  column.accessor('changedFields', { header: 'Changed fields', cell: (info) => info.getValue().join(', ') }),
];

/** The events, oldest first, a page at a time, and new ones live (a subscription); filter by type (comma-separated). */
export function EventsPage() {
  const [text, setText] = useState('');
  const [types, setTypes] = useState<string[] | undefined>(undefined);
  const pages = useCursorStack<number>();
  const { data, error } = useQuery(EventList, { variables: { after: pages.current ?? 0, types } });
  const page = data?.events;
  const [live, setLive] = useState(false);
  const [liveRows, setLiveRows] = useState<EventRow[]>([]);
  const subscription = useSubscription(LiveEvents, {
    variables: { types },
    skip: !live,
    onData: ({ data: received }) => {
      const event = received.data?.events;
      if (event) setLiveRows((rows) => [event, ...rows].slice(0, LIVE_ROWS));
    },
  });
  return (
    <>
      <h1>Events</h1>
      <SearchField
        className="field"
        value={text}
        onChange={setText}
        onSubmit={() => {
          pages.reset();
          const list = text
            .split(',')
            .map((type) => type.trim())
            .filter(Boolean);
          setTypes(list.length > 0 ? list : undefined);
        }}
        onClear={() => {
          pages.reset();
          setTypes(undefined);
        }}
      >
        <Label>Event types</Label>
        <Input placeholder="e.g. customer.created, transaction.posted" />
      </SearchField>
      <Switch
        className="switch"
        isSelected={live}
        onChange={(on) => {
          setLive(on);
          if (!on) setLiveRows([]);
        }}
      >
        <span className="indicator" aria-hidden="true" />
        Follow new events live
      </Switch>
      <ProblemMessage error={subscription.error} />
      {live ? (
        <DataTable
          caption="Live events, newest first"
          columns={columns}
          data={liveRows}
          empty="Waiting for new events…"
        />
      ) : null}
      <ProblemMessage error={error} />
      {page ? (
        <DataTable caption="Events, oldest first" columns={columns} data={page.events} empty="No events." />
      ) : null}
      <Pager
        label="Event pages"
        hasPrevious={pages.hasPrevious}
        hasNext={(page?.events.length ?? 0) === 20}
        onPrevious={pages.previous}
        onNext={() => pages.next(page!.nextAfter)}
      />
    </>
  );
}
