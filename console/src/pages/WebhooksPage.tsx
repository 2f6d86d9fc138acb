import { useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { DataTable } from '../components/DataTable';
import { ProblemMessage } from '../components/ProblemMessage';
import { instant } from '../format';
import { graphql } from '../gql';
import type { WebhookEndpointListQuery } from '../gql/graphql';

const WebhookEndpointList = graphql(`
  query WebhookEndpointList {
    webhookEndpoints {
      endpointId
      url
      eventTypes
      enabled
      disabledReason
      failingSince
      createdAt
    }
  }
`);

type EndpointRow = WebhookEndpointListQuery['webhookEndpoints'][number];
const column = createColumnHelper<EndpointRow>();
const columns = [
  column.accessor('url', { header: 'URL' }),
  column.accessor('eventTypes', { header: 'Event types', cell: (info) => (info.getValue().length === 0 ? 'every type' : info.getValue().join(', ')) }),
  column.accessor('enabled', { header: 'State', cell: (info) => (info.getValue() ? 'enabled' : `disabled${info.row.original.disabledReason ? ` (${info.row.original.disabledReason})` : ''}`) }),
  column.accessor('failingSince', { header: 'Failing since', cell: (info) => instant(info.getValue()) }),
  column.accessor('createdAt', { header: 'Created', cell: (info) => instant(info.getValue()) }),
];

/** The environment's webhook endpoints (at most the environment's maximum, so one list). */
export function WebhooksPage() {
  const { data, error } = useQuery(WebhookEndpointList);
  return (
    <>
      <h1>Webhooks</h1>
      <ProblemMessage error={error} />
      {data ? <DataTable caption="Webhook endpoints" columns={columns} data={data.webhookEndpoints} empty="No webhook endpoints." /> : null}
    </>
  );
}
