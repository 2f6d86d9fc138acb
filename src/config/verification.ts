import { z } from 'zod';
import { byteSize, commaList, integer, type Settings } from './settings.js';

/** The verification providers (docs/adr/0101, 0104); `none`: checks are refused. */
export const VERIFICATION_PROVIDERS = ['sandbox', 'http', 'none'] as const;

/** A Standard Webhooks secret: `whsec_` and the base64 of at least 24 bytes. */
const CALLBACK_SECRET = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

/** Customer verification (docs/verification.md): which provider answers checks, and how the results are applied. */
export const verificationEnv = {
  VERIFICATION_PROVIDER: z
    .enum(VERIFICATION_PROVIDERS, {
      message: `VERIFICATION_PROVIDER must be one of ${VERIFICATION_PROVIDERS.join(', ')}`,
    })
    .optional(),
  VERIFICATION_SANDBOX_DELAY_MS: integer('VERIFICATION_SANDBOX_DELAY_MS', 0, 3_600_000).default(2000),
  VERIFICATION_JOB_INTERVAL_MS: integer('VERIFICATION_JOB_INTERVAL_MS', 100, 3_600_000).default(1000),
  VERIFICATION_HTTP_URL: z.url({ message: 'VERIFICATION_HTTP_URL must be an absolute URL' }).optional(),
  VERIFICATION_HTTP_TOKEN: z
    .string()
    .trim()
    .min(16, 'VERIFICATION_HTTP_TOKEN must be at least 16 characters')
    .optional(),
  VERIFICATION_CALLBACK_SECRET: z
    .string()
    .trim()
    .regex(CALLBACK_SECRET, 'VERIFICATION_CALLBACK_SECRET must be a Standard Webhooks secret (whsec_ and base64)')
    .optional(),
  VERIFICATION_HTTP_TIMEOUT_MS: integer('VERIFICATION_HTTP_TIMEOUT_MS', 100, 60_000).default(10_000),
  VERIFICATION_HTTP_RETRIES: integer('VERIFICATION_HTTP_RETRIES', 0, 10).default(4),
  VERIFICATION_HTTP_RESULT_TIMEOUT_S: integer('VERIFICATION_HTTP_RESULT_TIMEOUT_S', 60, 30 * 86_400).default(86_400),
  VERIFICATION_REQUIRED: z.string().transform(commaList).default([]),
  // A document's cap (docs/adr/0103): at most DOCUMENT_LIMITS.maxBytes (src/features/verification), the most an upload
  // is ever held in memory and what stored documents' sizes promise; at least 1 KiB, room for any real file's header.
  VERIFICATION_DOCUMENT_MAX_BYTES: byteSize('VERIFICATION_DOCUMENT_MAX_BYTES', 1, 10).default(10 * 1024 * 1024),
};

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The sandbox is the default outside production and refused in it (its outcomes come from magic names, so it
 * would verify anyone). `http` needs its vendor's URL, token and callback secret: https in production; outside it
 * plain http only to a loopback address (a local fake vendor). The gated environments must be configured ones.
 */
export function verificationProblems(
  raw: Settings<typeof verificationEnv>,
  nodeEnv: string,
  environments: readonly string[],
  problems: string[],
): void {
  if (nodeEnv === 'production' && raw.VERIFICATION_PROVIDER === 'sandbox')
    problems.push(
      'VERIFICATION_PROVIDER must not be sandbox in production (NODE_ENV=production): its outcomes come from magic names',
    );
  if (raw.VERIFICATION_PROVIDER === 'http') {
    for (const name of ['VERIFICATION_HTTP_URL', 'VERIFICATION_HTTP_TOKEN', 'VERIFICATION_CALLBACK_SECRET'] as const)
      if (raw[name] === undefined) problems.push(`${name} is required when VERIFICATION_PROVIDER is http`);
  }
  if (raw.VERIFICATION_HTTP_URL !== undefined) {
    const url = new URL(raw.VERIFICATION_HTTP_URL);
    const plainAllowed = nodeEnv !== 'production' && LOOPBACK_HOSTS.has(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && plainAllowed))
      problems.push(
        'VERIFICATION_HTTP_URL must be https (plain http only to a loopback address outside production): the call carries personal data',
      );
    if (url.username !== '' || url.password !== '')
      problems.push('VERIFICATION_HTTP_URL must not carry credentials: use VERIFICATION_HTTP_TOKEN');
  }
  const unknown = raw.VERIFICATION_REQUIRED.filter((name) => !environments.includes(name));
  if (unknown.length > 0)
    problems.push(`VERIFICATION_REQUIRED names environments that are not in ENVIRONMENTS: ${unknown.join(', ')}`);
}

export const verificationConfig = (raw: Settings<typeof verificationEnv>, nodeEnv: string) => ({
  verification: {
    /** Who answers checks (VERIFICATION_PROVIDER): the sandbox by default outside production, none in it. */
    provider: raw.VERIFICATION_PROVIDER ?? (nodeEnv === 'production' ? 'none' : 'sandbox'),
    /** How long after a request the sandbox's result is applied (VERIFICATION_SANDBOX_DELAY_MS). */
    sandboxDelayMs: raw.VERIFICATION_SANDBOX_DELAY_MS,
    /** How often each instance applies the results that are due (VERIFICATION_JOB_INTERVAL_MS). */
    jobIntervalMs: raw.VERIFICATION_JOB_INTERVAL_MS,
    /** The `http` provider's vendor (docs/adr/0104); undefined unless VERIFICATION_PROVIDER=http. */
    http:
      raw.VERIFICATION_PROVIDER === 'http'
        ? {
            url: raw.VERIFICATION_HTTP_URL!,
            token: raw.VERIFICATION_HTTP_TOKEN!,
            callbackSecret: raw.VERIFICATION_CALLBACK_SECRET!,
            timeoutMs: raw.VERIFICATION_HTTP_TIMEOUT_MS,
            retries: raw.VERIFICATION_HTTP_RETRIES,
            resultTimeoutMs: raw.VERIFICATION_HTTP_RESULT_TIMEOUT_S * 1000,
          }
        : undefined,
    /** The gated environments (VERIFICATION_REQUIRED): none by default, so the contract holds unchanged. */
    required: [...new Set(raw.VERIFICATION_REQUIRED)],
    /** The largest document an upload may carry (VERIFICATION_DOCUMENT_MAX_BYTES): 10 MiB by default, the most. */
    documentMaxBytes: raw.VERIFICATION_DOCUMENT_MAX_BYTES,
  },
});
