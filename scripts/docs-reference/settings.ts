/**
 * What the code cannot say about each setting: the description, an example and, where the default is
 * computed at startup rather than written in the schema, the default in words. The one place these texts
 * live; scripts/docs-reference.ts renders docs/reference/configuration.md from them and from the zod schema
 * of src/config/config.ts (names, ranges, formats, written defaults), and fails when a setting of the schema
 * has no entry here or an entry names a setting the schema does not have.
 *
 * `default` is used only when the schema has no literal `.default(...)`; links are relative to docs/reference/.
 */
export interface SettingText {
  default: string;
  example: string;
  description: string;
}

export const SETTINGS: Record<string, SettingText> = {
  NODE_ENV: {
    default: '`development`',
    example: '`production`',
    description:
      'Production refuses to start without the PII keys or without any way to authenticate (`API_TOKENS`, OIDC or a managed token), and logs JSON.',
  },
  HOST: {
    default: '`0.0.0.0` in production, else `127.0.0.1`',
    example: '`0.0.0.0`',
    description: 'Listen address: loopback outside production (the development token has every scope).',
  },
  PORT: {
    default: '`3000`',
    example: '`8080`',
    description: 'Listen port (`0`: any free port).',
  },
  DATABASE_URL: {
    default: '– (embedded PostgreSQL)',
    example: '`postgresql://cas_app:…@db.internal:5432/customer_account`',
    description: 'External PostgreSQL ≥ 15.',
  },
  DATA_DIR: {
    default: '`./.data`',
    example: '`/var/lib/cas`',
    description: 'Embedded cluster, its password, development keys and token, `seed.json`.',
  },
  EMBEDDED_POSTGRES_PORT: {
    default: 'a free port',
    example: '`54329`',
    description: 'Fixed port of the embedded PostgreSQL.',
  },
  EMBEDDED_POSTGRES_RESTART_TIMEOUT_MS: {
    default: '`60000`',
    example: '`30000`',
    description:
      'How long the embedded PostgreSQL may take to start, and to be back after it died, before the service gives up and exits 69 (1000–3600000; not with `DATABASE_URL`).',
  },
  DATABASE_POOL_SIZE: {
    default: '`10`',
    example: '`20`',
    description: 'Connections per instance (1–200).',
  },
  DATABASE_CONNECT_TIMEOUT_MS: {
    default: '`2000`',
    example: '`1000`',
    description: 'Wait for a connection before answering `503 SERVICE_UNAVAILABLE`.',
  },
  DATABASE_STATEMENT_TIMEOUT_MS: {
    default: '`5000`',
    example: '`3000`',
    description: "`statement_timeout` of the service's sessions; transactions get twice this.",
  },
  DATABASE_REPLICA_URL: {
    default: '– (every read on the primary)',
    example: '`postgresql://cas_app:…@db-replica.internal:5432/customer_account`',
    description:
      'A streaming replica of `DATABASE_URL` for the reads that tolerate lag ("Read replicas" below); its own pool, as large as `DATABASE_POOL_SIZE`, with the same time-outs. Needs `DATABASE_URL`.',
  },
  DATABASE_REPLICA_MAX_WAIT_MS: {
    default: '`150`',
    example: '`100`',
    description:
      'How long a read presenting a `Consistency-Token` waits for the replica to replay that write before the primary answers it (0–10000; `0`: never wait).',
  },
  DATABASE_REPLICA_MAX_LAG_MS: {
    default: '`10000`',
    example: '`5000`',
    description: 'A replica whose data may be older than this answers no read until it has caught up (100–86400000).',
  },
  DATABASE_REPLICA_CHECK_INTERVAL_MS: {
    default: '`1000`',
    example: '`500`',
    description:
      "How often the replica's health, replay position and lag are checked; also how soon a recovered replica is used again (50–60000).",
  },
  DATABASE_PREPARED_STATEMENTS: {
    default: '`true`; `false` when `DATABASE_URL` has `pgbouncer=true`',
    example: '`false`',
    description:
      'Named prepared statements. `false` behind a pooler in transaction mode that cannot keep them (pgbouncer before 1.21; Debian 12 ships 1.18); then `MIGRATE_ON_START` must be `false` ("Behind a connection pooler" below).',
  },
  MIGRATE_ON_START: {
    default: '`true`',
    example: '`false`',
    description:
      'Apply pending migrations at startup; `false` when migrations are a deploy step, and required behind a transaction-mode pooler.',
  },
  MIGRATION_LOCK_TIMEOUT_MS: {
    default: '`5000`',
    example: '`2000`',
    description:
      "How long one statement of a migration waits for a lock (`lock_timeout`) before that attempt is rolled back and run again; short, so the fleet's writes queued behind the migration's lock request are not stalled for long (100–600000).",
  },
  MIGRATION_ATTEMPTS: {
    default: '`8`',
    example: '`20`',
    description:
      'How many times a migration runs at most when it loses a deadlock to the running fleet or times out on a lock, with doubling pauses from 250 ms to 8 s (1–100).',
  },
  HEAP_GROWING_PERCENT: {
    default: '`50`',
    example: '`100`',
    description:
      "How far V8 lets the old generation grow past what survived the last full collection (V8's `--heap-growing-percent`; `0`: V8's own, up to 300 %). Keeps peak RSS under the mixed load near 240 MB instead of 335 MB ([performance](../performance.md)); a growth factor, not a cap. `node --heap-growing-percent=N` wins (0–1000).",
  },
  DATABASE_LISTEN: {
    default: '`true`',
    example: '`false`',
    description:
      "`LISTEN` on one dedicated connection per instance, so that other instances' sequencers and fan-outs wake this one's subscriptions feed and webhook dispatcher at once (\"Waking other instances\" below). `false`: other instances' work is found by polling only (`WEBHOOKS_POLL_INTERVAL_MS`, `GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS`). Behind a transaction-mode pooler set `DATABASE_LISTEN_URL` or this to `false` (refused otherwise).",
  },
  DATABASE_LISTEN_URL: {
    default: '`DATABASE_URL`',
    example: '`postgresql://cas_listen:…@db-primary.internal:5432/customer_account`',
    description:
      'Where to `LISTEN`: the **primary**, directly or through a pooler in **session** mode; needed when `DATABASE_URL` goes through a transaction-mode pooler, where `LISTEN` receives nothing. Never the replica (refused when it equals `DATABASE_REPLICA_URL`) nor `pgbouncer=true`. Any role that may connect will do (`LISTEN` needs no privilege). Needs `DATABASE_URL`.',
  },
  API_TOKENS: {
    default: 'dev: generated; production: none',
    example: '`$(openssl rand -base64 32)`',
    description:
      "Static full-access bearer tokens, comma-separated, each 32 random bytes' worth (≥ 64 hex digits or ≥ 43 base64/base64url characters), no placeholder, not `cas_…` ([security](../security.md#static-tokens-api_tokens)). Optional in production when managed tokens or OIDC authenticate.",
  },
  ENVIRONMENTS: {
    default: '`sandbox`',
    example: '`sandbox,production`',
    description: 'Environment names, the first path segment.',
  },
  AUTH_CACHE_MAX_ENTRIES: {
    default: '`10000`',
    example: '`50000`',
    description:
      'Verified bearer tokens kept in memory per instance, managed tokens and JWTs each (least recently used out first); `0`: none, every request verifies its token in full. Only successes are kept ([ADR 0099](../adr/0099-authentication-caches.md)).',
  },
  AUTH_CACHE_MAX_AGE_MS: {
    default: '`60000`',
    example: '`300000`',
    description:
      "The longest a cached token is served after its verification, never past its `exp` or expiry. A managed token's revocation or change drops it on every listening instance at once; without the `LISTEN` connection (down, or `DATABASE_LISTEN=false`) a cached managed token is served for about a second only.",
  },
  PII_KEYS: {
    default: 'dev: generated',
    example: '`k2026:<base64 32 bytes>,k2025:<…>`',
    description: 'AES-256 keys by key id; keep every id a row or a backup still uses.',
  },
  PII_ACTIVE_KEY: {
    default: '–',
    example: '`k2026`',
    description: 'Key id that encrypts new data.',
  },
  PII_BLIND_INDEX_KEY: {
    default: 'dev: generated',
    example: '`<base64 32 bytes>`',
    description: 'HMAC key of the SSN blind index and idempotency fingerprints; rotate only offline.',
  },
  IDEMPOTENCY_TTL_HOURS: {
    default: '`24`',
    example: '`48`',
    description: 'How long an `Idempotency-Key` and its result are kept (1–720).',
  },
  EVENT_SEQUENCER_INTERVAL_MS: {
    default: '`100`',
    example: '`50`',
    description:
      'How often each instance numbers newly committed events (10–3,600,000); an event is readable at `GET /{environment}/event` once numbered. One instance numbers at a time (advisory lock), so an instance with a long interval leaves the numbering to the others; tests set it beyond their own length and run the pass on demand (`RunningService.jobs`).',
  },
  EVENT_RETENTION_DAYS: {
    default: '`30`',
    example: '`90`',
    description:
      'How long events are kept (1–3650); older ones are pruned hourly, with their webhook deliveries and attempts.',
  },
  WEBHOOKS_TIMEOUT_MS: {
    default: '`10000`',
    example: '`5000`',
    description:
      "One webhook attempt's time-out, from connecting to the last byte read (100–60,000); at most 4 KB of an answer are read.",
  },
  WEBHOOKS_RETRY_SCHEDULE: {
    default: '`5s,5m,30m,2h,5h,10h,10h`',
    example: '`1s,1m,10m,1h`',
    description:
      "The delay before each retry (`ms`, `s`, `m`, `h`; 1–20 of them, ≤ 24 h each); after the last the delivery is `exhausted`. A 429/503 `Retry-After` replaces the step's delay. An endpoint that failed for the schedule's whole sum without one success is disabled.",
  },
  WEBHOOKS_SECRET_OVERLAP_S: {
    default: '`86400`',
    example: '`3600`',
    description:
      'After a secret rotation, how long deliveries also carry a signature with the previous secret (0–2,592,000).',
  },
  WEBHOOKS_POLL_INTERVAL_MS: {
    default: '`1000`',
    example: '`500`',
    description:
      "How often each instance fans out new events and claims due deliveries besides being woken (by its own sequencer, and by other instances' fan-outs and redeliveries through `LISTEN`); retries falling due, and everything while the listener is down or off, are found at this granularity (10–3,600,000; more than a few seconds only where `LISTEN` is on and retries may wait that long, or in tests that prove a wake-up).",
  },
  WEBHOOKS_CONCURRENCY: {
    default: '`10`',
    example: '`50`',
    description:
      "Webhook attempts in flight at once per instance (1–200); instances share the work (`FOR UPDATE SKIP LOCKED`). Each configured environment gets an equal share of them, each endpoint half its environment's share, so one environment's never-answering endpoints cannot hold another's deliveries back ([events.md](../events.md#delivery-guarantees)).",
  },
  WEBHOOKS_MAX_ENDPOINTS_PER_ENVIRONMENT: {
    default: '`16`',
    example: '`32`',
    description:
      'Webhook endpoints one environment may have (1–10,000); one more is refused with `409 WEBHOOK_ENDPOINT_LIMIT`, race-free (a counter row the creation locks). `quota_limit` / `quota_refusals_total{quota="webhook_endpoints_per_environment"}`.',
  },
  WEBHOOKS_ALLOWED_PORTS: {
    default: '`443,80,8443` (`*` while `WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true`)',
    example: '`443`',
    description:
      "The ports a webhook URL may name (without one: its scheme's default), or `*`; others are `WEBHOOK_URL_NOT_ALLOWED` at registration. Under `NODE_ENV=production` webhook URLs must also be `https`.",
  },
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: {
    default: '`false`',
    example: '`true` (tests)',
    description:
      'Lets webhooks reach private, loopback, link-local and other non-public addresses. For tests and local development only: the service refuses to start with it under `NODE_ENV=production`.',
  },
  FLAG_EXPIRY_INTERVAL_MS: {
    default: '`10000`',
    example: '`1000`',
    description:
      'How often each instance lifts the account flags past their `until` (100–3,600,000), audited as `system:flag-expiry`. Until then an expired flag is still enforced.',
  },
  ENVIRONMENT_TIME_ZONES: {
    default: '`America/New_York` for every environment',
    example: '`sandbox=America/Los_Angeles,*=America/Chicago`',
    description:
      "Each environment's IANA time zone (`*`: every other environment): its business date and the midnight its end of day runs at ([clock](../clock.md)).",
  },
  ADJUSTABLE_CLOCK_ENVIRONMENTS: {
    default: '`sandbox`',
    example: '`sandbox,staging`',
    description:
      'The environments whose clock `POST /{environment}/clock/advance` may move forward; never `production` (refused at startup). Elsewhere the time is the real time.',
  },
  END_OF_DAY_INTERVAL_MS: {
    default: '`60000`',
    example: '`10000`',
    description:
      "How often each instance looks for ended business dates to close (100–3,600,000): a day's end of day runs within this of its midnight, and missed days are caught up in order.",
  },
  END_OF_DAY_LEASE_MS: {
    default: '`60000`',
    example: '`30000`',
    description:
      "How long an instance's claim on a day's end of day lasts without renewal (1,000–3,600,000, renewed after every batch): after a crash another instance (or the restarted one) resumes the day once it has run out.",
  },
  ACCOUNT_REOPEN_WINDOW_DAYS: {
    default: '`30`',
    example: '`90`',
    description:
      "How many days after its closing (by its environment's clock) `POST /{environment}/account/{accountId}/reopen` may reopen an account (1–3,650); later it answers ACCOUNT_REOPEN_WINDOW_PASSED ([account lifecycle](../account-lifecycle.md)).",
  },
  INACTIVE_AFTER_DAYS: {
    default: '`365`',
    example: '`180`',
    description:
      "Days without customer-initiated activity (by its environment's clock) after which the end of day marks an open account `INACTIVE` (1–3,650; [dormancy](../dormancy-and-escheatment.md)). Interest, fees and the bank's own postings do not count.",
  },
  DORMANT_AFTER_DAYS: {
    default: '`730`',
    example: '`1095`',
    description:
      'Days without customer-initiated activity after which the end of day marks an open account `DORMANT` (2–7,300; more than `INACTIVE_AFTER_DAYS`, checked at startup): it then refuses debits (ACCOUNT_DORMANT) until reactivated or credited by its customer.',
  },
  ESCHEATMENT_NOTICE_DAYS: {
    default: '`120`',
    example: '`90`',
    description:
      "The due-diligence window (0–730): `GET /{environment}/escheatment` lists the accounts whose state's dormancy period ends within this many days of `asOf`, and the end of day emits `account.escheatment_due` once per account when the window starts.",
  },
  ROUTING_NUMBERS: {
    default: '`011000015` for every environment (a valid test routing number)',
    example: '`production=021000021,*=011000015`',
    description:
      "Each environment's ABA routing number, answered with its account numbers and compared by `POST /{environment}/account-numbers/lookup`: `environment=123456789` entries, `*` for every other environment ([account numbers](../account-numbers.md)). Each must be 9 digits passing the ABA checksum (3-7-1), and each entry must name an environment of `ENVIRONMENTS` (or `*`), once; the service does not start otherwise (`ROUTING_NUMBER_INVALID`). Set it for every real environment.",
  },
  TAX_FORM_PAYER_NAME: {
    default: '`Example Sandbox Bank (not a real payer)` outside production; none in production',
    example: '`First Example Bank, N.A.`',
    description:
      "The payer's name on every 1099-INT ([tax forms](../tax-forms.md)), at most 120 characters. The four `TAX_FORM_PAYER_*` are set together or not at all (the service does not start otherwise). Without them, a production service (`NODE_ENV=production`) refuses tax forms (`TAX_FORM_PAYER_NOT_CONFIGURED`, 503) rather than print a made-up payer.",
  },
  TAX_FORM_PAYER_ADDRESS: {
    default: '`100 Example Street, Anytown, NY 10001` outside production',
    example: '`1 Main Street, Springfield, IL 62701`',
    description: "The payer's address on every 1099-INT, one line, at most 200 characters.",
  },
  TAX_FORM_PAYER_TIN: {
    default: '`00-0000000` outside production (an EIN prefix never issued)',
    example: '`12-3456789`',
    description: "The payer's EIN (the bank's), 9 digits as `NN-NNNNNNN` or `NNNNNNNNN`; printed as `NN-NNNNNNN`.",
  },
  TAX_FORM_PAYER_PHONE: {
    default: '`(555) 010-0100` outside production (a fictional number)',
    example: '`(800) 555-0199`',
    description: "The payer's telephone number on every 1099-INT (7–20 of digits, spaces, `+ ( ) - .`).",
  },
  HOLD_EXPIRY_INTERVAL_MS: {
    default: '`5000`',
    example: '`1000`',
    description:
      'How often each instance voids the holds past their `expiresAt` (100–3,600,000). Until then an expired hold still reserves its amount, but can no longer be posted.',
  },
  OIDC_ISSUER: {
    default: '– (JWTs off)',
    example: '`https://idp.example.com/`',
    description: 'Turns on JWT bearer tokens; the exact `iss`.',
  },
  OIDC_AUDIENCE: {
    default: '–',
    example: '`customer-account-service`',
    description: 'Required with the issuer: the `aud` expected.',
  },
  OIDC_JWKS_URL: {
    default: '–',
    example: '`https://idp.example.com/.well-known/jwks.json`',
    description: "The provider's keys (https); or:",
  },
  OIDC_PUBLIC_KEY: {
    default: '–',
    example: '`-----BEGIN PUBLIC KEY-----\\n…`',
    description: 'A PEM public key or public JWK instead of a JWKS.',
  },
  OIDC_ALGORITHMS: {
    default: '`RS256`',
    example: '`RS256,ES256`',
    description: 'Allowed asymmetric JWS algorithms.',
  },
  OIDC_CLOCK_TOLERANCE_S: {
    default: '`30`',
    example: '`10`',
    description: 'Skew accepted on `exp`/`nbf` (0–300).',
  },
  OIDC_SCOPES_CLAIM: {
    default: '`scope`',
    example: '`scp`',
    description: 'Claim with the scopes.',
  },
  OIDC_ENVIRONMENTS_CLAIM: {
    default: '`environments`',
    example: '`cas_envs`',
    description: 'Claim with the environments (`*` for all).',
  },
  OIDC_JWKS_COOLDOWN_S: {
    default: '`30`',
    example: '`60`',
    description: 'Minimum time between JWKS refetches caused by unknown key ids.',
  },
  OIDC_REQUIRED_TYP: {
    default: '`at+jwt` in production; elsewhere – (not checked)',
    example: '`none`',
    description:
      'The `typ` header every JWT must carry (RFC 9068; case and an `application/` prefix are ignored, so `application/at+jwt` passes `at+jwt`); other tokens, ID tokens among them, are 401. `none` turns the check off, in production too (for a provider that types its access tokens `JWT`).',
  },
  OIDC_MAX_TOKEN_AGE_S: {
    default: '`3600` in production; elsewhere – (no limit)',
    example: '`5400`',
    description:
      'Refuse JWTs whose `iat` is older than this (or missing), and JWTs whose lifetime `exp − iat` is longer, 1–2678400 s. `none` turns the limit off, in production too (only `exp` then bounds a token). An `iat` in the future beyond `OIDC_CLOCK_TOLERANCE_S` is refused whatever this says.',
  },
  CONSOLE_OIDC_CLIENT_ID: {
    default: '– (API token only)',
    example: '`cas-console`',
    description:
      'Offers OIDC sign-in in the console: its public client id at `OIDC_ISSUER` (PKCE; redirect URI `/console/callback`).',
  },
  CONSOLE_OIDC_SCOPES: {
    default: '`openid`',
    example: '`openid customers:read accounts:read`',
    description: 'The scopes the console asks for (`openid` always); the token carries what the provider grants.',
  },
  CONSOLE_OIDC_PROVIDER_NAME: {
    default: '– ("your identity provider")',
    example: '`Okta`',
    description: 'Shown on the button: "Sign in with …".',
  },
  CORS_ORIGINS: {
    default: '`https://studio.apollographql.com`; none in production',
    example: '`https://app.bank.example`',
    description: "Browser origins allowed to call the API (Apollo Sandbox's by default outside production).",
  },
  GRAPHQL_INTROSPECTION: {
    default: '`true`; `false` in production',
    example: '`false`',
    description: 'Schema introspection.',
  },
  GRAPHQL_EXPLORER: {
    default: '`true`; `false` in production',
    example: '`false`',
    description: 'Apollo Sandbox landing page and the offline GraphiQL at `/{environment}/graphiql`.',
  },
  GRAPHQL_MAX_DEPTH: {
    default: '`10`',
    example: '`8`',
    description: 'Deepest selection nesting (`QUERY_TOO_DEEP`).',
  },
  GRAPHQL_MAX_ALIASES: {
    default: '`30`',
    example: '`10`',
    description: 'Aliases per document (`TOO_MANY_ALIASES`).',
  },
  GRAPHQL_MAX_ROOT_FIELDS: {
    default: '`20`',
    example: '`5`',
    description: 'Root fields per operation (`TOO_MANY_ROOT_FIELDS`).',
  },
  GRAPHQL_MAX_COST: {
    default: '`25000`',
    example: '`10000`',
    description:
      'Estimated cost per operation (`QUERY_TOO_COMPLEX`; 1 to 10^12); every list counts at the most it can hold.',
  },
  GRAPHQL_MAX_NODES: {
    default: '`50000`',
    example: '`20000`',
    description:
      'Fields and list items one operation may resolve (100–10,000,000); past it `TOO_MANY_NODES`, `data: null`.',
  },
  GRAPHQL_MAX_EXECUTION_MS: {
    default: '`10000`',
    example: '`5000`',
    description:
      'How long one operation may execute (100–600,000 ms); past it no further field resolves: `OPERATION_TIMEOUT`, `data: null`.',
  },
  GRAPHQL_MAX_RESPONSE_BYTES: {
    default: '`4mb`',
    example: '`1mb`',
    description:
      'The largest serialised answer (1kb–256mb; `65536`, `64kb`, `1mb`); past it `RESPONSE_TOO_LARGE`, `data: null`.',
  },
  GRAPHQL_MAX_TOKENS: {
    default: '`2000`',
    example: '`1000`',
    description: 'Tokens per document (`DOCUMENT_TOO_LARGE`).',
  },
  GRAPHQL_SUBSCRIPTIONS_POLL_INTERVAL_MS: {
    default: '`1000`',
    example: '`500`',
    description:
      "How often each instance's subscription feed reads newly numbered events besides being woken (by its own sequencer, and by any sequencer through `LISTEN`) (10–3,600,000): while the listener is down or off, events another instance numbered reach this instance's subscribers within it. Nothing is read while nobody subscribes.",
  },
  GRAPHQL_WS_MAX_CONNECTIONS_PER_PRINCIPAL: {
    default: '`20`',
    example: '`50`',
    description:
      'GraphQL WebSocket connections one token may have open on an instance (1–100,000); one more is closed with `4429` `TOO_MANY_CONNECTIONS`.',
  },
  GRAPHQL_WS_MAX_CONNECTIONS_PER_ADDRESS: {
    default: '`50`',
    example: '`200`',
    description:
      'GraphQL WebSocket connections one client address may have open on an instance, authenticated or not (1–100,000); checked before the token; beyond: `4429`. Behind a proxy: the address `TRUST_PROXY_HOPS` yields.',
  },
  GRAPHQL_SUBSCRIPTIONS_MAX_FOLLOWERS: {
    default: '`1000`',
    example: '`5000`',
    description:
      'Subscriptions open at once on an instance, all connections together (1–1,000,000); each may buffer up to 1000 events, so this bounds their memory. Beyond: the operation fails with `SUBSCRIPTIONS_FULL`.',
  },
  RATE_LIMIT_POINTS: {
    default: '`6000` (`0` under `NODE_ENV=test`)',
    example: '`1200`',
    description: 'Points per token per window, REST and GraphQL together; `0` turns it off.',
  },
  RATE_LIMIT_DURATION_S: {
    default: '`60`',
    example: '`60`',
    description: 'The window of `RATE_LIMIT_POINTS` (1–86400 s).',
  },
  RATE_LIMIT_GRAPHQL_COST_PER_POINT: {
    default: '`100`',
    example: '`50`',
    description: 'A GraphQL operation costs 1 + ⌊estimated cost / this⌋ points.',
  },
  SSN_SEARCH_RATE_LIMIT_PER_MINUTE: {
    default: '`30` (`0` under `NODE_ENV=test`)',
    example: '`10`',
    description:
      'Searches by social security number (`POST /{environment}/customer/search`, GraphQL `searchCustomers` with one) each principal may make per minute, on top of `RATE_LIMIT_POINTS`; one more is `429 SSN_SEARCH_RATE_LIMITED` with `Retry-After`. Counted in `REDIS_URL` when set. `0` turns it off.',
  },
  ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE: {
    default: '`600` (`0` under `NODE_ENV=test`)',
    example: '`120`',
    description:
      'Account number look-ups (`POST /{environment}/account-numbers/lookup`, GraphQL `lookupAccountNumber`) each principal may make per minute, on top of `RATE_LIMIT_POINTS`; one more is `429 ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED` with `Retry-After`. Counted in `REDIS_URL` when set. `0` turns it off.',
  },
  RATE_LIMIT_AUTH_FAILURES: {
    default: '`20` (`0` under `NODE_ENV=test`)',
    example: '`10`',
    description: 'Refused tokens per client address per window before the address gets 429; `0` turns it off.',
  },
  RATE_LIMIT_AUTH_FAILURES_DURATION_S: {
    default: '`300`',
    example: '`600`',
    description: 'The window of `RATE_LIMIT_AUTH_FAILURES` (1–86400 s).',
  },
  REDIS_URL: {
    default: '– (in-memory budgets)',
    example: '`redis://redis.internal:6379/0`',
    description: 'Redis shared by every instance for the rate-limit budgets.',
  },
  TRUST_PROXY_HOPS: {
    default: '`0`',
    example: '`1`',
    description: 'Reverse proxies whose `X-Forwarded-For` is trusted for the client address (0–10).',
  },
  LEDGER_EXPORT_MAX_CONCURRENT: {
    default: '`2`, and fewer than `DATABASE_POOL_SIZE` (`1` with a pool of one or two)',
    example: '`4`',
    description:
      'Ledger exports (`GET /{environment}/ledger-entries`) an instance runs at once (1–1000), each holding a database snapshot and a pool connection for its whole run; must be less than `DATABASE_POOL_SIZE`. One more is refused with `503 LEDGER_EXPORTS_FULL` and `Retry-After`.',
  },
  STATEMENT_PDF_WORKERS: {
    default: '`1`',
    example: '`2`',
    description:
      "Worker threads an instance draws statement PDFs with (1–16), each one PDF at a time, off the event loop; they start with the first PDF. Each is a CPU core's worth of work while it draws (seconds for 10,000 transactions), so leave the event loop a core: more workers only on instances with cores to spare.",
  },
  STATEMENT_PDF_MAX_PENDING: {
    default: '`4` per worker (`4` with one worker)',
    example: '`8`',
    description:
      'Statement PDFs an instance renders or queues at once (1–1000, at least `STATEMENT_PDF_WORKERS`). One more is refused with `503 STATEMENT_RENDERING_BUSY` and `Retry-After`; a PDF of an ended period already kept is answered whatever the queue.',
  },
  STATEMENT_PDF_CACHE_BYTES: {
    default: '`32mb`',
    example: '`128mb`',
    description:
      'Memory an instance keeps PDFs of ended periods in, by content (`0` keeps none; at most 1 GiB): asked again with the same content, such a statement is answered without drawing it again. The least recently asked go first; a PDF larger than the budget is not kept. An open period is never kept.',
  },
  LOG_LEVEL: {
    default: '`info`',
    example: '`debug`',
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`.',
  },
  LOG_PRETTY: {
    default: '`true` when `NODE_ENV=development`, else `false`',
    example: '`false`',
    description: 'Human-readable lines instead of JSON.',
  },
  METRICS_PORT: {
    default: '–',
    example: '`9464`',
    description: 'Serve `GET /metrics` alone on this port (`0`: any free port).',
  },
  METRICS_HOST: {
    default: '`HOST` with `METRICS_TOKEN`, else `127.0.0.1`',
    example: '`10.0.0.5`',
    description:
      'Listen address of the metrics port (only with `METRICS_PORT`); without `METRICS_TOKEN` only a loopback address is accepted.',
  },
  METRICS_TOKEN: {
    default: '–',
    example: '`<32+ random chars>`',
    description: 'The one bearer token `/metrics` accepts, instead of API tokens with `metrics:read`.',
  },
  BODY_LIMIT: {
    default: '`64kb`',
    example: '`1mb`',
    description: 'Largest request body (`65536`, `64kb`, `1mb`; 1 KiB–10 MiB).',
  },
  SHUTDOWN_TIMEOUT_MS: {
    default: '`10000`',
    example: '`25000`',
    description: 'Time in-flight requests get after SIGTERM before connections are closed.',
  },
  SHUTDOWN_DRAIN_MS: {
    default: '`0`',
    example: '`2000`',
    description:
      "After SIGTERM, how long `/readyz` answers 503 while requests are still served, so a load balancer takes the instance out of rotation before its listener closes (set it above the balancer's check interval × fall count).",
  },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: {
    default: '`65000`',
    example: '`75000`',
    description:
      "Idle keep-alive connections close after this (1000–120000). Keep it above the load balancer's idle timeout (60 s on most), or the balancer may send a request on a connection the service is closing (a 502 or a reset).",
  },
  HTTP_HEADERS_TIMEOUT_MS: {
    default: '`15000`',
    example: '`10000`',
    description:
      "A client must have sent a request's headers this long after the request's first byte (after connecting, for a connection's first request); else 408 and the connection closes. Not longer than `HTTP_REQUEST_TIMEOUT_MS`.",
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    default: '`30000`',
    example: '`60000`',
    description:
      "A client must have sent a whole request, headers and body, this long after its first byte; else 408 and the connection closes. It bounds receiving the request only: an answer (a ledger export's stream) and a WebSocket subscription last as long as they need.",
  },
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: {
    default: '`256`; `0` (no cap) when `TRUST_PROXY_HOPS` > 0',
    example: '`1000`',
    description:
      "Open connections one TCP peer address may have (0–100000, `0`: no cap). Beyond it a connection's requests (and WebSocket upgrades) are answered 503 `TOO_MANY_CONNECTIONS` with `Retry-After: 1` and the connection closes; beyond twice it a connection is closed unanswered. Behind a proxy the peer is the proxy, hence no cap by default there.",
  },
  VERIFICATION_PROVIDER: {
    default: '`sandbox`; `none` when `NODE_ENV=production`',
    example: '`none`',
    description:
      'Who answers verification checks ([verification](../verification.md)): `sandbox` (magic names, refused in production), `http` (a vendor, [providers](../verification-providers.md)) or `none` (503).',
  },
  VERIFICATION_SANDBOX_DELAY_MS: {
    default: '`2000`',
    example: '`0`',
    description: "How long after a request the sandbox's result is applied: the check stays PENDING until then.",
  },
  VERIFICATION_JOB_INTERVAL_MS: {
    default: '`1000`',
    example: '`500`',
    description:
      'How often each instance applies the results of the verification checks that are due (100–3,600,000), each in its own transaction with its status change, event and audit row (`system:verification-sandbox`); instances never apply one twice.',
  },
  VERIFICATION_HTTP_URL: {
    default: 'none; required with `VERIFICATION_PROVIDER=http`',
    example: '`https://kyc.vendor.example/v1/checks`',
    description:
      "The `http` provider's vendor endpoint: https (plain http only to a loopback address outside production).",
  },
  VERIFICATION_HTTP_TOKEN: {
    default: 'none; required with `VERIFICATION_PROVIDER=http`',
    example: '`vendor-api-key-…` (16+ characters)',
    description: 'The bearer token the service sends the vendor; never logged.',
  },
  VERIFICATION_CALLBACK_SECRET: {
    default: 'none; required with `VERIFICATION_PROVIDER=http`',
    example: '`whsec_…`',
    description:
      "The Standard Webhooks secret that verifies the vendor's callbacks (`POST /{environment}/verification/callback`).",
  },
  VERIFICATION_HTTP_TIMEOUT_MS: {
    default: '`10000`',
    example: '`5000`',
    description: "One submission attempt's time-out (100–60000).",
  },
  VERIFICATION_HTTP_RETRIES: {
    default: '`4`',
    example: '`2`',
    description:
      'Retries after a failed submission (0–10, back-off from 1 s doubling to 60 s); then PROVIDER_UNAVAILABLE.',
  },
  VERIFICATION_HTTP_RESULT_TIMEOUT_S: {
    default: '`86400` (a day)',
    example: '`3600`',
    description:
      'How long an accepted check waits for the vendor’s callback (60 s – 30 days); then NEEDS_REVIEW with PROVIDER_NO_RESULT.',
  },
  VERIFICATION_REQUIRED: {
    default: 'empty: no environment gated',
    example: '`production`',
    description:
      'Gated environments: accounts, new holders, postings and closing disbursements need VERIFIED customers; a rejection freezes accounts.',
  },
  VERIFICATION_DOCUMENT_MAX_BYTES: {
    default: '`10mb`',
    example: '`5mb`',
    description:
      'The largest verification document an upload may carry: a longer one is refused (413 DOCUMENT_CONTENT_TOO_LARGE), nothing stored. It can lower the 10 MiB cap, not raise it.',
  },
};
