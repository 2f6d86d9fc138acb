import { useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../components/DataTable';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { useCursorStack } from '../components/usePages';
import { instant } from '../format';
import { graphql } from '../gql';
import type { AuditTrailQuery } from '../gql/graphql';

const AuditTrail = graphql(`
  query AuditTrail($after: String) {
    auditEvents(first: 20, after: $after) {
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

type AuditRow = AuditTrailQuery['auditEvents']['nodes'][number];
const column = createColumnHelper<AuditRow>();
const columns = [
  column.accessor('occurredAt', { header: 'When', cell: (info) => instant(info.getValue()) }),
  column.accessor('principalId', { header: 'Who' }),
  column.accessor('operation', { header: 'Operation' }),
  column.accessor('resourceId', { header: 'Resource', cell: (info) => <code>{info.getValue()}</code> }),
  column.accessor('changedFields', { header: 'Fields written', cell: (info) => info.getValue().join(', ') }),
];

/** The audit trail, oldest first, a page at a time. */
export function AuditPage() {
  const pages = useCursorStack<string>();
  const { data, error } = useQuery(AuditTrail, { variables: { after: pages.current } });
  const connection = data?.auditEvents;
  return (
    <>
      <h1>Audit trail</h1>
      <ProblemMessage error={error} />
      {connection ? <DataTable caption="Audit events, oldest first" columns={columns} data={connection.nodes} empty="No audit events." /> : null}
      <Pager
        label="Audit pages"
        hasPrevious={pages.hasPrevious}
        hasNext={connection?.pageInfo.hasNextPage ?? false}
        onPrevious={pages.previous}
        onNext={() => pages.next(connection!.pageInfo.endCursor!)}
      />
    </>
  );
}
