import { z } from 'zod';
import { commaList, type Settings } from './settings.js';

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
};

export const accessConfig = (raw: Settings<typeof accessEnv>) => ({
  /**
   * Static full-access bearer tokens (src/config/static-tokens.ts says what they must be); undefined in
   * development means "generate one", in production "none": managed tokens or OIDC authenticate instead
   * (the runtime refuses to start a production service that has no way to authenticate at all).
   */
  apiTokens: raw.API_TOKENS,
  environments: [...new Set(raw.ENVIRONMENTS)],
});
