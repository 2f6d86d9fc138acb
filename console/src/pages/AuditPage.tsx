import { useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useState } from 'react';
import { Button, Input, Label, TextField } from 'react-aria-components';
import { ProblemTextField } from '../components/FormProblems';
import { DataTable } from '../components/DataTable';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { useCursorStack } from '../components/usePages';
import { AUDIT_OPERATIONS } from '../audit-operations';
import { instant } from '../format';
import { graphql } from '../gql';
import type { AuditTrailQuery } from '../gql/graphql';

const AuditTrail = graphql(`
  query AuditTrail(
    $after: String
    $resourceId: ID
    $principalId: String
    $operation: String
    $from: String
    $to: String
  ) {
    auditEvents(
      first: 20
      after: $after
      resourceId: $resourceId
      principalId: $principalId
      operation: $operation
      from: $from
      to: $to
    ) {
      nodes {
        eventId
        occurredAt
        principalId
        operation
        resourceType
        resourceId
        changedFields
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export interface AuditFilter {
  resourceId?: string;
  principalId?: string;
  operation?: string;
  from?: string;
  to?: string;
}

type AuditRow = AuditTrailQuery['auditEvents']['nodes'][number];
const column = createColumnHelper<AuditRow>();
const columns = [
  column.accessor('occurredAt', { header: 'When', cell: (info) => instant(info.getValue()) }),
  column.accessor('principalId', { header: 'Who' }),
  column.accessor('operation', { header: 'Operation' }),
  column.accessor('resourceId', { header: 'Resource', cell: (info) => <code>{info.getValue()}</code> }),
  column.accessor('changedFields', { header: 'Fields written', cell: (info) => info.getValue().join(', ') }),
];

/** Audit events matching a filter, oldest first, a page at a time (the API's cursor; a new filter starts again). */
export function AuditTable({ filter, caption, label }: { filter: AuditFilter; caption: string; label: string }) {
  const pages = useCursorStack<string>();
  const { data, error } = useQuery(AuditTrail, { variables: { ...filter, after: pages.current } });
  const connection = data?.auditEvents;
  return (
    <>
      <ProblemMessage error={error} />
      {connection ? (
        <DataTable caption={caption} columns={columns} data={connection.nodes} empty="No audit events match." />
      ) : null}
      <Pager
        label={label}
        hasPrevious={pages.hasPrevious}
        hasNext={connection?.pageInfo.hasNextPage ?? false}
        onPrevious={pages.previous}
        onNext={() => pages.next(connection!.pageInfo.endCursor!)}
      />
    </>
  );
}

interface FilterDraft {
  principalId: string;
  operation: string;
  resourceId: string;
  from: string;
  to: string;
}

const NO_FILTER: FilterDraft = { principalId: '', operation: '', resourceId: '', from: '', to: '' };

/** A `datetime-local` value (the browser's time zone) as an ISO 8601 instant in UTC; empty: none. */
/** The API's record ids are UUIDs; anything else would be refused (VALIDATION_FAILED), so it is said here first. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const instantOf = (local: string): string | undefined => {
  if (local.trim() === '') return undefined;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
};

const filterOf = (draft: FilterDraft): AuditFilter =>
  Object.fromEntries(
    Object.entries({
      principalId: draft.principalId.trim(),
      operation: draft.operation,
      resourceId: draft.resourceId.trim(),
      from: instantOf(draft.from),
      to: instantOf(draft.to),
    }).filter(([, value]) => value !== undefined && value !== ''),
  );

/** The audit trail, oldest first, a page at a time, filtered by who wrote, the operation, the record and a time range. */
export function AuditPage() {
  const [draft, setDraft] = useState<FilterDraft>(NO_FILTER);
  const [filter, setFilter] = useState<AuditFilter>({});
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter(filterOf(draft));
  };
  return (
    <>
      <h1>Audit trail</h1>
      <form onSubmit={apply} className="inline-form filters" aria-label="Audit filters">
        <TextField
          className="field"
          value={draft.principalId}
          onChange={(principalId) => setDraft({ ...draft, principalId })}
        >
          <Label>Actor</Label>
          <Input placeholder="e.g. token:…" />
        </TextField>
        <label className="field">
          Operation
          <select value={draft.operation} onChange={(event) => setDraft({ ...draft, operation: event.target.value })}>
            <option value="">any</option>
            {AUDIT_OPERATIONS.map((operation) => (
              <option key={operation}>{operation}</option>
            ))}
          </select>
        </label>
        <ProblemTextField
          field="resourceId"
          label="Record id"
          value={draft.resourceId}
          onChange={(resourceId) => setDraft({ ...draft, resourceId })}
          validate={(value) => (value.trim() === '' || UUID.test(value.trim()) ? null : 'A record id is a UUID.')}
        />
        <ProblemTextField
          field="from"
          label="From"
          type="datetime-local"
          value={draft.from}
          onChange={(from) => setDraft({ ...draft, from })}
        />
        <ProblemTextField
          field="to"
          label="Before"
          type="datetime-local"
          value={draft.to}
          onChange={(to) => setDraft({ ...draft, to })}
          validate={(to) =>
            to !== '' && draft.from !== '' && new Date(to) <= new Date(draft.from) ? 'Before must be after From.' : null
          }
        />
        <Button type="submit">Apply filters</Button>
        <Button
          onPress={() => {
            setDraft(NO_FILTER);
            setFilter({});
          }}
        >
          Clear filters
        </Button>
      </form>
      <AuditTable
        key={JSON.stringify(filter)}
        filter={filter}
        caption="Audit events, oldest first"
        label="Audit pages"
      />
    </>
  );
}
