import { useMutation, useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { DataTable } from '../components/DataTable';
import { ProblemMessage } from '../components/ProblemMessage';
import { instant } from '../format';
import { graphql } from '../gql';
import type { WebhookEndpointListQuery } from '../gql/graphql';
import { useCan } from '../viewer';

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

const EnableEndpoint = graphql(`
  mutation EnableWebhookEndpoint($endpointId: ID!) {
    enableWebhookEndpoint(endpointId: $endpointId) {
      endpointId
      enabled
      disabledReason
    }
  }
`);

const DisableEndpoint = graphql(`
  mutation DisableWebhookEndpoint($endpointId: ID!) {
    disableWebhookEndpoint(endpointId: $endpointId) {
      endpointId
      enabled
      disabledReason
    }
  }
`);

// The new secret is answered here only: shown once, never cached.
const RotateSecret = graphql(`
  mutation RotateWebhookSecret($endpointId: ID!) {
    rotateWebhookSecret(endpointId: $endpointId) {
      secret
      endpoint {
        endpointId
        url
      }
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

/** The environment's webhook endpoints (at most the environment's maximum, so one list); with `webhooks:write`, enable, disable and rotate. */
export function WebhooksPage() {
  const canWrite = useCan('webhooks:write');
  const { data, error } = useQuery(WebhookEndpointList);
  const [enable, enabled] = useMutation(EnableEndpoint);
  const [disable, disabled] = useMutation(DisableEndpoint);
  const [rotate, rotated] = useMutation(RotateSecret, { fetchPolicy: 'no-cache' });
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const busy = enabled.loading || disabled.loading || rotated.loading;
  const actions = column.display({
    id: 'actions',
    header: 'Actions',
    cell: (info) => {
      const { endpointId, url } = info.row.original;
      const variables = { endpointId };
      return (
        <span className="row-actions">
          {info.row.original.enabled ? (
            <Button isDisabled={busy} aria-label={`Disable ${url}`} onPress={() => void disable({ variables }).catch(() => undefined)}>
              Disable
            </Button>
          ) : (
            <Button isDisabled={busy} aria-label={`Enable ${url}`} onPress={() => void enable({ variables }).catch(() => undefined)}>
              Enable
            </Button>
          )}
          <Button
            isDisabled={busy}
            aria-label={`Rotate secret of ${url}`}
            onPress={() =>
              void rotate({ variables })
                .then((answer) => answer.data && setSecret({ url, secret: answer.data.rotateWebhookSecret.secret }))
                .catch(() => undefined)
            }
          >
            Rotate secret
          </Button>
        </span>
      );
    },
  });
  return (
    <>
      <h1>Webhooks</h1>
      <ProblemMessage error={error ?? enabled.error ?? disabled.error ?? rotated.error} />
      {secret ? (
        <div role="status" className="done secret">
          <p>
            The new signing secret of {secret.url}, shown this once: store it now. The previous secret keeps signing alongside it for a while.
          </p>
          <p>
            <code>{secret.secret}</code>
          </p>
          <Button onPress={() => setSecret(null)}>I have stored it</Button>
        </div>
      ) : null}
      {data ? <DataTable caption="Webhook endpoints" columns={canWrite ? [...columns, actions] : columns} data={data.webhookEndpoints} empty="No webhook endpoints." /> : null}
    </>
  );
}
