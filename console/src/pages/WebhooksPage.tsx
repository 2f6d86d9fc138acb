import { useMutation, useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { DataTable } from '../components/DataTable';
import { ProblemMessage } from '../components/ProblemMessage';
import { instant } from '../format';
import { graphql } from '../gql';
import type { WebhookEndpointDeliveriesQuery, WebhookEndpointListQuery } from '../gql/graphql';
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

const EndpointDeliveries = graphql(`
  query WebhookEndpointDeliveries($endpointId: ID!) {
    webhookEndpoint(endpointId: $endpointId) {
      endpointId
      url
      enabled
      attempts(first: 20) {
        attemptId
        eventId
        attemptedAt
        statusCode
        latencyMs
        succeeded
        error
      }
    }
  }
`);

const Redeliver = graphql(`
  mutation RedeliverWebhook($endpointId: ID!, $eventId: ID!) {
    redeliverWebhook(endpointId: $endpointId, eventId: $eventId) {
      endpointId
      eventId
    }
  }
`);

type AttemptRow = NonNullable<WebhookEndpointDeliveriesQuery['webhookEndpoint']>['attempts'][number];
const attemptColumn = createColumnHelper<AttemptRow>();
const attemptColumns = [
  attemptColumn.accessor('attemptedAt', { header: 'When', cell: (info) => instant(info.getValue()) }),
  attemptColumn.accessor('eventId', { header: 'Event', cell: (info) => <code>{info.getValue()}</code> }),
  attemptColumn.accessor('succeeded', { header: 'Result', cell: (info) => (info.getValue() ? 'delivered' : 'failed') }),
  attemptColumn.accessor('statusCode', { header: 'HTTP status', cell: (info) => info.getValue() ?? 'no answer' }),
  attemptColumn.accessor('latencyMs', { header: 'Latency (ms)' }),
  attemptColumn.accessor('error', { header: 'Error', cell: (info) => info.getValue() ?? '' }),
];

/**
 * An endpoint's latest delivery attempts, newest first; with `webhooks:write`, send an attempt's event again
 * (`redeliverWebhook`: same `webhook-id`, as soon as a dispatcher is free).
 */
function Deliveries({ endpointId, onClose }: { endpointId: string; onClose(): void }) {
  const canWrite = useCan('webhooks:write');
  const { data, error, refetch, loading } = useQuery(EndpointDeliveries, {
    variables: { endpointId },
    fetchPolicy: 'network-only',
  });
  const [redeliver, redelivered] = useMutation(Redeliver);
  const [scheduled, setScheduled] = useState<string | null>(null);
  const endpoint = data?.webhookEndpoint;
  const action = attemptColumn.display({
    id: 'redeliver',
    header: 'Actions',
    cell: (info) => {
      const { eventId } = info.row.original;
      return (
        <Button
          isDisabled={redelivered.loading}
          aria-label={`Redeliver event ${eventId}`}
          onPress={() => {
            setScheduled(null);
            void redeliver({ variables: { endpointId, eventId } })
              .then((answer) => answer.data && setScheduled(answer.data.redeliverWebhook.eventId))
              .catch(() => undefined);
          }}
        >
          Redeliver
        </Button>
      );
    },
  });
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries{endpoint ? ` to ${endpoint.url}` : ''}</h2>
      <div className="actions">
        <Button isDisabled={loading} onPress={() => void refetch().catch(() => undefined)}>
          Refresh deliveries
        </Button>
        <Button onPress={onClose}>Close deliveries</Button>
      </div>
      <ProblemMessage error={error ?? redelivered.error} />
      {scheduled ? (
        <p role="status" className="done">
          Event <code>{scheduled}</code> will be delivered again.
        </p>
      ) : null}
      {endpoint ? (
        <DataTable
          caption="Latest delivery attempts, newest first"
          columns={canWrite ? [...attemptColumns, action] : attemptColumns}
          data={endpoint.attempts}
          empty="No delivery attempts yet."
        />
      ) : null}
    </section>
  );
}

type EndpointRow = WebhookEndpointListQuery['webhookEndpoints'][number];
const column = createColumnHelper<EndpointRow>();
const columns = [
  column.accessor('url', { header: 'URL' }),
  column.accessor('eventTypes', {
    header: 'Event types',
    cell: (info) => (info.getValue().length === 0 ? 'every type' : info.getValue().join(', ')),
  }),
  column.accessor('enabled', {
    header: 'State',
    cell: (info) =>
      info.getValue()
        ? 'enabled'
        : `disabled${info.row.original.disabledReason ? ` (${info.row.original.disabledReason})` : ''}`,
  }),
  column.accessor('failingSince', { header: 'Failing since', cell: (info) => instant(info.getValue()) }),
  column.accessor('createdAt', { header: 'Created', cell: (info) => instant(info.getValue()) }),
];

/**
 * The environment's webhook endpoints (at most the environment's maximum, so one list) and an endpoint's latest
 * deliveries; with `webhooks:write`, enable, disable, rotate and redeliver.
 */
export function WebhooksPage() {
  const canWrite = useCan('webhooks:write');
  const { data, error } = useQuery(WebhookEndpointList);
  const [enable, enabled] = useMutation(EnableEndpoint);
  const [disable, disabled] = useMutation(DisableEndpoint);
  const [rotate, rotated] = useMutation(RotateSecret, { fetchPolicy: 'no-cache' });
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const deliveries = column.display({
    id: 'deliveries',
    header: 'Deliveries',
    cell: (info) => (
      <Button
        aria-label={`Show deliveries to ${info.row.original.url}`}
        onPress={() => setShown(info.row.original.endpointId)}
      >
        Show
      </Button>
    ),
  });
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
            <Button
              isDisabled={busy}
              aria-label={`Disable ${url}`}
              onPress={() => void disable({ variables }).catch(() => undefined)}
            >
              Disable
            </Button>
          ) : (
            <Button
              isDisabled={busy}
              aria-label={`Enable ${url}`}
              onPress={() => void enable({ variables }).catch(() => undefined)}
            >
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
            The new signing secret of {secret.url}, shown this once: store it now. The previous secret keeps signing
            alongside it for a while.
          </p>
          <p>
            <code>{secret.secret}</code>
          </p>
          <Button onPress={() => setSecret(null)}>I have stored it</Button>
        </div>
      ) : null}
      {data ? (
        <DataTable
          caption="Webhook endpoints"
          columns={canWrite ? [...columns, deliveries, actions] : [...columns, deliveries]}
          data={data.webhookEndpoints}
          empty="No webhook endpoints."
        />
      ) : null}
      {shown ? <Deliveries key={shown} endpointId={shown} onClose={() => setShown(null)} /> : null}
    </>
  );
}
