import { z } from 'zod';

/**
 * The console's OIDC sign-in (Authorization Code with PKCE, docs/adr/0072-console-oidc-sign-in.md): the
 * public client the console is at the identity provider, which is OIDC_ISSUER (src/config/oidc.ts) and
 * issues the JWT access tokens the service already verifies. Undefined: the console offers the API token only.
 */
export interface ConsoleOidcConfig {
  /** OIDC_ISSUER: discovery at its /.well-known/openid-configuration. */
  issuer: string;
  /** The issuer's origin: the one origin the console's page may connect to besides its own. */
  issuerOrigin: string;
  clientId: string;
  /** Requested with the authorization; `openid` always among them. */
  scopes: string[];
  /** RFC 8707 resource indicator: OIDC_AUDIENCE when it is an absolute URI, so the access token is for this service. */
  resource: string | undefined;
  /** Shown on the button ("Sign in with …"); undefined: "your identity provider". */
  providerName: string | undefined;
}

/** An OAuth scope-token (RFC 6749 §3.3). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export const consoleEnv = {
  CONSOLE_OIDC_CLIENT_ID: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, 'CONSOLE_OIDC_CLIENT_ID must be printable ASCII without spaces')
    .optional(),
  CONSOLE_OIDC_SCOPES: z
    .string()
    .transform((value) => value.split(/[\s,]+/).filter(Boolean))
    .refine(
      (scopes) => scopes.every((scope) => SCOPE_TOKEN.test(scope)),
      'CONSOLE_OIDC_SCOPES must be OAuth scopes separated by spaces or commas',
    )
    .optional(),
  CONSOLE_OIDC_PROVIDER_NAME: z.string().trim().min(1).max(60).optional(),
};

/** CONSOLE_OIDC_* after the shared schema in config.ts has parsed them, with the OIDC_* they depend on. */
export interface ConsoleOidcEnvironment {
  CONSOLE_OIDC_CLIENT_ID?: string | undefined;
  CONSOLE_OIDC_SCOPES?: string[] | undefined;
  CONSOLE_OIDC_PROVIDER_NAME?: string | undefined;
  OIDC_ISSUER?: string | undefined;
  OIDC_AUDIENCE?: string | undefined;
}

const isLoopback = (hostname: string) => ['localhost', '127.0.0.1', '[::1]'].includes(hostname);

function absoluteUri(text: string): boolean {
  try {
    return new URL(text).hash === '';
  } catch {
    return false;
  }
}

/** Checks the console's OIDC settings together; pushes one message per problem. Undefined when off or invalid. */
export function parseConsoleOidcConfig(raw: ConsoleOidcEnvironment, problems: string[]): ConsoleOidcConfig | undefined {
  const clientId = raw.CONSOLE_OIDC_CLIENT_ID;
  if (clientId === undefined) {
    const stray = (['CONSOLE_OIDC_SCOPES', 'CONSOLE_OIDC_PROVIDER_NAME'] as const).filter(
      (name) => raw[name] !== undefined,
    );
    if (stray.length > 0)
      problems.push(
        `${stray.join(', ')} set without CONSOLE_OIDC_CLIENT_ID: set it to offer OIDC sign-in in the console`,
      );
    return undefined;
  }
  if (raw.OIDC_ISSUER === undefined) {
    problems.push(
      'CONSOLE_OIDC_CLIENT_ID needs OIDC_ISSUER (and the rest of the OIDC_* settings): the console signs in at that issuer',
    );
    return undefined;
  }
  let issuer: URL;
  try {
    issuer = new URL(raw.OIDC_ISSUER);
  } catch {
    problems.push(
      'OIDC_ISSUER must be a URL when CONSOLE_OIDC_CLIENT_ID is set (the console discovers the provider from it)',
    );
    return undefined;
  }
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && isLoopback(issuer.hostname))) {
    problems.push(
      'OIDC_ISSUER must use https when CONSOLE_OIDC_CLIENT_ID is set (plain http only for localhost): the browser exchanges the code for a token there',
    );
    return undefined;
  }
  const scopes = ['openid', ...(raw.CONSOLE_OIDC_SCOPES ?? []).filter((scope) => scope !== 'openid')];
  return {
    issuer: raw.OIDC_ISSUER,
    issuerOrigin: issuer.origin,
    clientId,
    scopes: [...new Set(scopes)],
    resource: raw.OIDC_AUDIENCE !== undefined && absoluteUri(raw.OIDC_AUDIENCE) ? raw.OIDC_AUDIENCE : undefined,
    providerName: raw.CONSOLE_OIDC_PROVIDER_NAME,
  };
}
