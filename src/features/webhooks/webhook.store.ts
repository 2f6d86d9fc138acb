import type { AccessScope } from '../../domain/caller.js';
import {
  EVENT_FIELDS,
  type EventRow,
  type EventType,
  numberedEventsAfter,
  numberOf,
  roundOf,
  toEvent,
} from '../events/index.js';
import type { WriteEffects } from '../../domain/write-effects.js';
import type {
  AttemptOutcome,
  ClaimedDelivery,
  ClaimRooms,
  EndpointCreation,
  NewEndpointRecord,
  RecordedAttempt,
  RedeliveryOutcome,
  WebhookStore,
} from './ports.js';
import type { SealedSecret, WebhookAttempt, WebhookEndpoint } from './webhook.js';
import { WAKE_CHANNELS } from '../../db/connection/notifications.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import { auditInsert, auditValues } from '../../db/sql/write-effects.js';

/**
 * Wakes every instance's dispatcher (src/db/connection/notifications.ts) when the named CTE made deliveries due: one
 * notification per statement, delivered by PostgreSQL at its commit, so the rows are there to be claimed.
 */
const notifyDeliveriesDue = (cte: string) =>
  `(SELECT count(pg_notify('${WAKE_CHANNELS.deliveriesDue}', '')) FROM (SELECT 1 FROM ${cte} LIMIT 1) due)::int AS notified`;

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ENDPOINT_COLUMNS = `w.id AS "endpointId", w.url, w.event_types AS "eventTypes", w.enabled, w.disabled_reason AS "disabledReason",
  ${iso('w.created_at')} AS "createdAt", ${iso('w.updated_at')} AS "updatedAt", ${iso('w.failing_since')} AS "failingSince",
  CASE WHEN w.previous_secret_expires_at > CURRENT_TIMESTAMP THEN ${iso('w.previous_secret_expires_at')} END AS "previousSecretExpiresAt"`;

const SQL = {
  /**
   * A new endpoint receives the events numbered after its creation: its cursor starts at the environment's
   * last sequence. `quota` locks the environment's counter row (kept by a trigger, migration
   * 20261203000000_webhook_endpoint_counts) and yields a row only while the environment has fewer than $7
   * endpoints: a concurrent creation waits for this one's commit and then sees its count, so the limit
   * holds however many arrive at once. The audit event ($8…) is written with the endpoint, or not at all.
   */
  create: statement(
    'webhook_create',
    `WITH quota AS (
       INSERT INTO webhook_endpoint_counts AS c (environment, endpoints) VALUES ($2::varchar, 0)
       ON CONFLICT (environment) DO UPDATE SET endpoints = c.endpoints WHERE c.endpoints < $7::int
       RETURNING c.endpoints
     ),
     created AS (
       INSERT INTO webhook_endpoints AS w (id, environment, url, event_types, secret_key_id, secret_ciphertext, last_sequence, read_scopes)
       SELECT $1::uuid, $2::varchar, $3::varchar, $4::text[], $5::varchar, $6::bytea, coalesce((SELECT s.last FROM event_sequences s WHERE s.environment = $2::varchar), 0), $17::text[]
       FROM quota WHERE quota.endpoints < $7::int
       RETURNING w.*
     ),
     audit AS (${auditInsert(8, 'created')})
     SELECT ${ENDPOINT_COLUMNS} FROM created w`,
  ),
  find: statement(
    'webhook_find',
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w WHERE w.environment = $1 AND w.id = $2::uuid`,
  ),
  // Ids are UUIDv7: their order is the creation order.
  list: statement(
    'webhook_list',
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints w WHERE w.environment = $1 ORDER BY w.id`,
  ),
  // Each change of who receives what writes its audit event ($5… / $3…) in its own statement.
  update: statement(
    'webhook_update',
    `WITH updated AS (
       UPDATE webhook_endpoints w SET url = coalesce($3::varchar, w.url), event_types = coalesce($4::text[], w.event_types),
              read_scopes = coalesce($14::text[], w.read_scopes), updated_at = CURRENT_TIMESTAMP
       WHERE w.environment = $1 AND w.id = $2::uuid
       RETURNING w.*
     ),
     audit AS (${auditInsert(5, 'updated')})
     SELECT ${ENDPOINT_COLUMNS} FROM updated w`,
  ),
  delete: statement(
    'webhook_delete',
    `WITH deleted AS (DELETE FROM webhook_endpoints w WHERE w.environment = $1 AND w.id = $2::uuid RETURNING w.id),
     audit AS (${auditInsert(3, 'deleted')})
     SELECT count(*)::int AS deleted FROM deleted`,
  ),
  // Enabling forgets the failures and makes the endpoint's waiting retries due now.
  setEnabled: statement(
    'webhook_set_enabled',
    `WITH changed AS (
       UPDATE webhook_endpoints w SET enabled = $3::boolean,
         disabled_reason = CASE WHEN $3::boolean THEN NULL WHEN w.enabled THEN $4::varchar ELSE w.disabled_reason END,
         failing_since = CASE WHEN $3::boolean THEN NULL ELSE w.failing_since END,
         updated_at = CURRENT_TIMESTAMP
       WHERE w.environment = $1 AND w.id = $2::uuid
       RETURNING w.*
     ),
     resumed AS (
       UPDATE webhook_deliveries d SET next_attempt_at = CURRENT_TIMESTAMP FROM changed c
       WHERE $3::boolean AND d.endpoint_id = c.id AND d.next_attempt_at > CURRENT_TIMESTAMP AND d.lease_id IS NULL
       RETURNING 1
     ),
     audit AS (${auditInsert(5, 'changed')})
     SELECT ${ENDPOINT_COLUMNS}, ${notifyDeliveriesDue('resumed')} FROM changed w`,
  ),
  rotate: statement(
    'webhook_rotate',
    `WITH rotated AS (
       UPDATE webhook_endpoints w SET previous_secret_key_id = w.secret_key_id, previous_secret_ciphertext = w.secret_ciphertext,
         previous_secret_expires_at = $5::timestamptz, secret_key_id = $3::varchar, secret_ciphertext = $4::bytea, updated_at = CURRENT_TIMESTAMP
       WHERE w.environment = $1 AND w.id = $2::uuid
       RETURNING w.*
     ),
     audit AS (${auditInsert(6, 'rotated')})
     SELECT ${ENDPOINT_COLUMNS} FROM rotated w`,
  ),
  attempts: statement(
    'webhook_attempts',
    `SELECT a.id AS "attemptId", a.event_id AS "eventId", ${iso('a.attempted_at')} AS "attemptedAt", a.status_code AS "statusCode",
       a.latency_ms AS "latencyMs", a.succeeded, a.error
     FROM webhook_endpoints w
     LEFT JOIN LATERAL (SELECT * FROM webhook_attempts a WHERE a.endpoint_id = w.id ORDER BY a.attempted_at DESC, a.id DESC LIMIT $3) a ON true
     WHERE w.environment = $1 AND w.id = $2::uuid
     ORDER BY a.attempted_at DESC, a.id DESC`,
  ),
  redeliver: statement(
    'webhook_redeliver',
    `WITH endpoint AS (SELECT w.id, w.enabled FROM webhook_endpoints w WHERE w.environment = $1 AND w.id = $2::uuid),
     event AS (
       SELECT e.id, ${numberOf('e', 'r')} AS sequence FROM events e CROSS JOIN LATERAL ${roundOf('e')} r
       WHERE e.environment = $1 AND e.id = $3::uuid AND (r.first_txid, r.first_id) <= (e.txid, e.id)
     ),
     scheduled AS (
       INSERT INTO webhook_deliveries AS d (endpoint_id, event_id, sequence, next_attempt_at)
       SELECT w.id, e.id, e.sequence, CURRENT_TIMESTAMP FROM endpoint w, event e WHERE w.enabled
       ON CONFLICT (endpoint_id, event_id) DO UPDATE SET status = 'pending', next_attempt_at = CURRENT_TIMESTAMP
       RETURNING 1
     ),
     audit AS (${auditInsert(4, 'scheduled')})
     SELECT (SELECT count(*) FROM endpoint)::int AS endpoints, (SELECT count(*) FROM endpoint WHERE enabled)::int AS enabled,
            (SELECT count(*) FROM event)::int AS events, (SELECT count(*) FROM scheduled)::int AS scheduled,
            ${notifyDeliveriesDue('scheduled')}`,
  ),
  /**
   * The fan-out, one instance at a time (an advisory lock; the others skip): for every endpoint, the next
   * events of its environment after its cursor, in sequence order; a delivery for each the endpoint wants
   * (enabled, type matching), then the cursor moves past all of them. Re-running it creates nothing twice
   * (the unique (endpoint, event) index and the cursor), so a crash anywhere only means doing it again.
   */
  fanOut: statement(
    'webhook_fan_out',
    `WITH fanout AS MATERIALIZED (SELECT pg_try_advisory_xact_lock(hashtext('cas_webhook_fanout')) AS held),
     candidates AS MATERIALIZED (
       SELECT w.id AS endpoint_id, w.enabled, w.event_types, e.id AS event_id, e.sequence, e.type
       FROM webhook_endpoints w
       CROSS JOIN LATERAL (
         ${numberedEventsAfter({ environment: 'w.environment', after: 'w.last_sequence', columns: 'e.id, e.type', limit: '$1' })}
       ) e
       WHERE (SELECT held FROM fanout)
     ),
     inserted AS (
       INSERT INTO webhook_deliveries (endpoint_id, event_id, sequence, next_attempt_at)
       SELECT c.endpoint_id, c.event_id, c.sequence, CURRENT_TIMESTAMP FROM candidates c
       WHERE c.enabled AND (cardinality(c.event_types) = 0 OR c.type = ANY(c.event_types))
       ORDER BY c.endpoint_id, c.sequence
       ON CONFLICT (endpoint_id, event_id) DO NOTHING
       RETURNING 1
     ),
     advanced AS (
       UPDATE webhook_endpoints w SET last_sequence = c.last
       FROM (SELECT endpoint_id, max(sequence) AS last FROM candidates GROUP BY endpoint_id) c
       WHERE w.id = c.endpoint_id AND w.last_sequence < c.last
     )
     SELECT (SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM candidates GROUP BY endpoint_id) x)::int AS fullest,
            (SELECT count(*) FROM inserted)::int AS created, ${notifyDeliveriesDue('inserted')}`,
  ),
  /**
   * Claims due deliveries of enabled endpoints, skipping rows another dispatcher is claiming. A delivery
   * that never had an attempt is claimable only when no earlier event (lower sequence) of the same endpoint
   * is still waiting for its first attempt to finish (claimed or not): first attempts go out one at a time
   * per endpoint, in sequence order. The claim is a lease: next_attempt_at moves past the attempt's
   * time-out, so a dispatcher that dies mid-attempt leaves the delivery due again.
   *
   * The candidates are each endpoint's queue head (one index probe per endpoint) and the due retries, looked
   * up by id: testing every due delivery against its endpoint's earlier ones made a claim cost grow with
   * the backlog times itself (10,000 first attempts waiting: 36–79 ms per claim, now under 2 ms), and one
   * endpoint's backlog slowed every endpoint's deliveries (docs/reliability.md, bugs found).
   *
   * Fairness (issue 28): the dispatcher says how much room each environment and endpoint has left ($3…$8:
   * the busy ones' room, the default for the others). Retries are looked up per environment, so one
   * environment's pile of due retries cannot fill the candidate list; the candidates are then ranked per
   * environment and per endpoint, only those within their room are taken, and environments take turns
   * (every environment's first candidate, then every second one, …). A sandbox whose endpoints never answer
   * holds at most its share of the attempts in flight; the other environments' deliveries go on meanwhile.
   */
  claim: statement(
    'webhook_claim',
    `WITH environment_rooms AS MATERIALIZED (SELECT * FROM unnest($3::text[], $4::int[]) AS e(environment, room)),
     endpoint_rooms AS MATERIALIZED (SELECT * FROM unnest($6::uuid[], $7::int[]) AS e(endpoint_id, room)),
     candidates AS MATERIALIZED (
       SELECT h.id, w.environment, w.id AS endpoint_id, h.next_attempt_at, h.sequence FROM webhook_endpoints w
       CROSS JOIN LATERAL (
         SELECT p.id, p.next_attempt_at, p.sequence FROM webhook_deliveries p
         WHERE p.endpoint_id = w.id AND p.attempts = 0 AND p.next_attempt_at IS NOT NULL
         ORDER BY p.sequence LIMIT 1
       ) h
       WHERE w.enabled AND h.next_attempt_at <= CURRENT_TIMESTAMP
       UNION ALL
       SELECT r.id, envs.environment, r.endpoint_id, r.next_attempt_at, r.sequence
       FROM (SELECT DISTINCT w.environment FROM webhook_endpoints w WHERE w.enabled) envs
       CROSS JOIN LATERAL (
         SELECT r.id, r.endpoint_id, r.next_attempt_at, r.sequence FROM webhook_deliveries r JOIN webhook_endpoints w ON w.id = r.endpoint_id
         WHERE r.next_attempt_at <= CURRENT_TIMESTAMP AND r.attempts > 0 AND w.enabled AND w.environment = envs.environment
           AND coalesce((SELECT room FROM endpoint_rooms e WHERE e.endpoint_id = w.id), $8::int) > 0
         ORDER BY r.next_attempt_at LIMIT $1
       ) r
       WHERE coalesce((SELECT room FROM environment_rooms e WHERE e.environment = envs.environment), $5::int) > 0
     ),
     ranked AS MATERIALIZED (
       SELECT c.id,
         row_number() OVER (PARTITION BY c.environment ORDER BY c.next_attempt_at, c.sequence) AS turn,
         row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.sequence) AS endpoint_turn,
         coalesce((SELECT room FROM environment_rooms e WHERE e.environment = c.environment), $5::int) AS environment_room,
         coalesce((SELECT room FROM endpoint_rooms e WHERE e.endpoint_id = c.endpoint_id), $8::int) AS endpoint_room
       FROM candidates c
     ),
     due AS (
       SELECT d.id FROM webhook_deliveries d JOIN ranked r ON r.id = d.id
       WHERE d.next_attempt_at <= CURRENT_TIMESTAMP AND r.turn <= r.environment_room AND r.endpoint_turn <= r.endpoint_room
       ORDER BY r.turn, d.next_attempt_at, d.sequence
       LIMIT $1
       FOR UPDATE OF d SKIP LOCKED
     ),
     claimed AS (
       UPDATE webhook_deliveries d SET next_attempt_at = CURRENT_TIMESTAMP + $2::int * interval '1 millisecond', lease_id = gen_random_uuid()
       FROM due WHERE d.id = due.id
       RETURNING d.id, d.lease_id, d.endpoint_id, d.event_id, d.attempts, d.sequence
     )
     SELECT c.id AS "deliveryId", c.lease_id AS "leaseId", c.endpoint_id AS "endpointId", c.attempts, w.environment, w.url,
       w.secret_key_id AS "secretKeyId", w.secret_ciphertext AS "secretCiphertext",
       CASE WHEN w.previous_secret_expires_at > CURRENT_TIMESTAMP THEN w.previous_secret_key_id END AS "previousSecretKeyId",
       CASE WHEN w.previous_secret_expires_at > CURRENT_TIMESTAMP THEN w.previous_secret_ciphertext END AS "previousSecretCiphertext",
       w.read_scopes AS "readScopes", ${EVENT_FIELDS}, c.sequence::text AS sequence
     FROM claimed c JOIN webhook_endpoints w ON w.id = c.endpoint_id JOIN events e ON e.id = c.event_id
     ORDER BY c.endpoint_id, c.sequence`,
  ),
  /**
   * One attempt's outcome: the attempt row; the delivery (only if this dispatcher still holds the lease);
   * the endpoint's failure streak, disabling it on a 410 or when it has failed for the whole window. It
   * answers, from the rows as they were before it (`before`), whether an earlier attempt had delivered the
   * event and whether this one disabled the endpoint: the delivery metrics need both.
   */
  complete: statement(
    'webhook_complete',
    `WITH before AS MATERIALIZED (
       SELECT w.enabled, EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = $1::uuid AND a.succeeded) AS delivered
       FROM webhook_endpoints w WHERE w.id = $3::uuid
     ),
     attempt AS (
       INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_id, status_code, latency_ms, succeeded, error)
       SELECT d.id, $3::uuid, $4::uuid, $6::int, $7::int, $5::boolean, $8::varchar FROM webhook_deliveries d WHERE d.id = $1::uuid
     ),
     delivery AS (
       UPDATE webhook_deliveries d SET attempts = d.attempts + 1,
         status = CASE WHEN $5::boolean THEN 'delivered' WHEN $9::int IS NULL THEN 'exhausted' ELSE 'failed' END,
         next_attempt_at = CASE WHEN $5::boolean OR $9::int IS NULL THEN NULL ELSE CURRENT_TIMESTAMP + $9::int * interval '1 millisecond' END,
         lease_id = NULL, last_attempt_at = CURRENT_TIMESTAMP, last_status_code = $6::int, last_error = $8::varchar, last_latency_ms = $7::int
       WHERE d.id = $1::uuid AND d.lease_id = $2::uuid
       RETURNING d.id
     ),
     endpoint AS (
       UPDATE webhook_endpoints w SET
         failing_since = CASE WHEN $5::boolean THEN NULL ELSE coalesce(w.failing_since, CURRENT_TIMESTAMP) END,
         enabled = w.enabled AND ($5::boolean OR NOT ($10::boolean OR coalesce(w.failing_since <= CURRENT_TIMESTAMP - $11::bigint * interval '1 millisecond', false))),
         disabled_reason = CASE
           WHEN NOT w.enabled THEN w.disabled_reason
           WHEN $5::boolean THEN NULL
           WHEN $10::boolean THEN 'The endpoint answered 410 Gone.'
           WHEN w.failing_since <= CURRENT_TIMESTAMP - $11::bigint * interval '1 millisecond' THEN 'Every attempt failed for a whole retry window.'
         END
       WHERE w.id = $3::uuid AND EXISTS (SELECT 1 FROM delivery)
       RETURNING w.enabled
     )
     SELECT (SELECT count(*) FROM delivery)::int AS recorded, coalesce((SELECT delivered FROM before), false) AS "deliveredBefore",
            coalesce((SELECT b.enabled AND NOT e.enabled FROM before b, endpoint e), false) AS "disabledEndpoint"`,
  ),
};

interface EndpointRow extends Omit<WebhookEndpoint, 'eventTypes'> {
  eventTypes: string[];
}

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  endpointId: row.endpointId,
  url: row.url,
  eventTypes: row.eventTypes as EventType[],
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  failingSince: row.failingSince,
  previousSecretExpiresAt: row.previousSecretExpiresAt,
});

interface ClaimRow extends EventRow {
  deliveryId: string;
  leaseId: string;
  endpointId: string;
  attempts: number;
  environment: string;
  url: string;
  secretKeyId: string;
  secretCiphertext: Uint8Array;
  previousSecretKeyId: string | null;
  previousSecretCiphertext: Uint8Array | null;
  readScopes: string[];
}

const bytes = (value: Uint8Array): Buffer => Buffer.from(value);

/** Webhook endpoints, deliveries and attempts on PostgreSQL, through Prisma Client; each operation one statement. */
export class PrismaWebhookStore implements WebhookStore {
  constructor(private readonly prisma: PrismaClient) {}

  async create(record: NewEndpointRecord, maxEndpoints: number, effects: WriteEffects): Promise<EndpointCreation> {
    const [row] = await queryRows<EndpointRow>(this.prisma, SQL.create, [
      record.id,
      record.environment,
      record.url,
      record.eventTypes,
      record.secret.keyId,
      bytes(record.secret.ciphertext),
      maxEndpoints,
      ...auditValues(effects.audit),
      record.readScopes,
    ]);
    return row ? { created: toEndpoint(row) } : { refused: 'endpoint_limit' };
  }

  async find(environment: string, endpointId: string): Promise<WebhookEndpoint | null> {
    const [row] = await queryRows<EndpointRow>(this.prisma, SQL.find, [environment, endpointId]);
    return row ? toEndpoint(row) : null;
  }

  async list(environment: string): Promise<WebhookEndpoint[]> {
    return (await queryRows<EndpointRow>(this.prisma, SQL.list, [environment])).map(toEndpoint);
  }

  async update(
    environment: string,
    endpointId: string,
    changes: { url?: string | undefined; eventTypes?: EventType[] | undefined; readScopes?: AccessScope[] | undefined },
    effects: WriteEffects,
  ): Promise<WebhookEndpoint | null> {
    const [row] = await queryRows<EndpointRow>(this.prisma, SQL.update, [
      environment,
      endpointId,
      changes.url ?? null,
      changes.eventTypes ?? null,
      ...auditValues(effects.audit),
      changes.readScopes ?? null,
    ]);
    return row ? toEndpoint(row) : null;
  }

  async delete(environment: string, endpointId: string, effects: WriteEffects): Promise<boolean> {
    const [row] = await queryRows<{ deleted: number }>(this.prisma, SQL.delete, [
      environment,
      endpointId,
      ...auditValues(effects.audit),
    ]);
    return row!.deleted > 0;
  }

  async setEnabled(
    environment: string,
    endpointId: string,
    enabled: boolean,
    reason: string | null,
    effects: WriteEffects,
  ): Promise<WebhookEndpoint | null> {
    const [row] = await queryRows<EndpointRow>(this.prisma, SQL.setEnabled, [
      environment,
      endpointId,
      enabled,
      reason,
      ...auditValues(effects.audit),
    ]);
    return row ? toEndpoint(row) : null;
  }

  async rotateSecret(
    environment: string,
    endpointId: string,
    secret: SealedSecret,
    previousExpiresAt: Date,
    effects: WriteEffects,
  ): Promise<WebhookEndpoint | null> {
    const [row] = await queryRows<EndpointRow>(this.prisma, SQL.rotate, [
      environment,
      endpointId,
      secret.keyId,
      bytes(secret.ciphertext),
      previousExpiresAt,
      ...auditValues(effects.audit),
    ]);
    return row ? toEndpoint(row) : null;
  }

  async listAttempts(environment: string, endpointId: string, limit: number): Promise<WebhookAttempt[] | null> {
    const rows = await queryRows<WebhookAttempt & { attemptId: string | null }>(this.prisma, SQL.attempts, [
      environment,
      endpointId,
      limit,
    ]);
    if (rows.length === 0) return null;
    return rows.filter((row) => row.attemptId !== null);
  }

  async redeliver(
    environment: string,
    endpointId: string,
    eventId: string,
    effects: WriteEffects,
  ): Promise<RedeliveryOutcome> {
    const [row] = await queryRows<{ endpoints: number; enabled: number; events: number }>(this.prisma, SQL.redeliver, [
      environment,
      endpointId,
      eventId,
      ...auditValues(effects.audit),
    ]);
    if (row!.endpoints === 0) return 'endpoint_not_found';
    if (row!.events === 0) return 'event_not_found';
    if (row!.enabled === 0) return 'endpoint_disabled';
    return 'scheduled';
  }

  async fanOut(limit: number): Promise<{ considered: number; created: number }> {
    const [row] = await queryRows<{ fullest: number; created: number }>(this.prisma, SQL.fanOut, [limit]);
    return { considered: row!.fullest, created: row!.created };
  }

  async claim(
    limit: number,
    leaseMs: number,
    rooms: ClaimRooms = {
      perEnvironment: limit,
      perEndpoint: limit,
      busyEnvironments: new Map(),
      busyEndpoints: new Map(),
    },
  ): Promise<ClaimedDelivery[]> {
    const rows = await queryRows<ClaimRow>(this.prisma, SQL.claim, [
      limit,
      Math.ceil(leaseMs),
      [...rooms.busyEnvironments.keys()],
      [...rooms.busyEnvironments.values()],
      rooms.perEnvironment,
      [...rooms.busyEndpoints.keys()],
      [...rooms.busyEndpoints.values()],
      rooms.perEndpoint,
    ]);
    return rows.map((row) => ({
      deliveryId: row.deliveryId,
      leaseId: row.leaseId,
      endpointId: row.endpointId,
      environment: row.environment,
      url: row.url,
      attempts: row.attempts,
      secret: { keyId: row.secretKeyId, ciphertext: row.secretCiphertext },
      previousSecret:
        row.previousSecretKeyId && row.previousSecretCiphertext
          ? { keyId: row.previousSecretKeyId, ciphertext: row.previousSecretCiphertext }
          : null,
      event: toEvent(row),
      readScopes: row.readScopes as AccessScope[],
    }));
  }

  async complete(outcome: AttemptOutcome): Promise<RecordedAttempt> {
    const [row] = await queryRows<{ recorded: number; deliveredBefore: boolean; disabledEndpoint: boolean }>(
      this.prisma,
      SQL.complete,
      [
        outcome.deliveryId,
        outcome.leaseId,
        outcome.endpointId,
        outcome.eventId,
        outcome.succeeded,
        outcome.statusCode,
        Math.round(outcome.latencyMs),
        outcome.error,
        outcome.retryInMs === null ? null : Math.round(outcome.retryInMs),
        outcome.gone,
        Math.round(outcome.disableAfterMs),
      ],
    );
    return {
      recorded: row!.recorded > 0,
      deliveredBefore: row!.deliveredBefore,
      disabledEndpoint: row!.disabledEndpoint,
    };
  }
}
