import { z } from 'zod';
import { commaList, integer, type Settings } from './settings.js';

const ENVIRONMENT_NAME = /^[a-z][a-z0-9-]{0,62}$/;
// Paths that are not environments; an environment with one of these names would shadow them.
const RESERVED_ENVIRONMENT_NAMES = new Set([
  'healthz',
  'readyz',
  'metrics',
  'docs',
  'openapi.json',
  'graphql',
  'console',
]);

/** Who may call (static tokens; OIDC has its own section, src/config/oidc.ts) and the environments there are. */
export const accessEnv = {
  // Each entry's strength is checked by staticTokenProblems (below), which names entries by position only.
  API_TOKENS: z.string().transform(commaList).optional(),
  ENVIRONMENTS: z
    .string()
    .transform(commaList)
    .refine((names) => names.length > 0, 'ENVIRONMENTS must name at least one environment')
    .refine(
      (names) => names.every((n) => ENVIRONMENT_NAME.test(n)),
      'ENVIRONMENTS entries must be lower-case letters, digits and dashes, starting with a letter',
    )
    .refine(
      (names) => names.every((n) => !RESERVED_ENVIRONMENT_NAMES.has(n)),
      `ENVIRONMENTS may not use a reserved name (${[...RESERVED_ENVIRONMENT_NAMES].join(', ')})`,
    )
    .default(['sandbox']),
  AUTH_CACHE_MAX_ENTRIES: integer('AUTH_CACHE_MAX_ENTRIES', 0, 1_000_000).default(10_000),
  AUTH_CACHE_MAX_AGE_MS: integer('AUTH_CACHE_MAX_AGE_MS', 1000, 3_600_000).default(60_000),
};

export const accessConfig = (raw: Settings<typeof accessEnv>) => ({
  /**
   * Static full-access bearer tokens (src/config/static-tokens.ts says what they must be); undefined in
   * development means "generate one", in production "none": managed tokens or OIDC authenticate instead
   * (the runtime refuses to start a production service that has no way to authenticate at all).
   */
  apiTokens: raw.API_TOKENS,
  environments: [...new Set(raw.ENVIRONMENTS)],
  /**
   * The authentication caches (docs/adr/0099-authentication-caches.md): at most `maxEntries` managed tokens and
   * as many JWTs per instance (0: no cache), each served `maxAgeMs` at most after its verification, never
   * past its token's expiry. A managed token's revocation drops it at once on every listening instance; an
   * instance that cannot listen serves a cached managed token for about a second only.
   */
  authCache: { maxEntries: raw.AUTH_CACHE_MAX_ENTRIES, maxAgeMs: raw.AUTH_CACHE_MAX_AGE_MS },
});
