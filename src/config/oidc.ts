import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { commaList, integer } from './settings.js';

/** JWT bearer tokens from an OIDC provider (see docs/security.md). */
export interface OidcConfig {
  issuer: string;
  audience: string;
  /** Exactly one of jwksUrl and publicKey is set. */
  jwksUrl: URL | undefined;
  publicKey: KeyObject | undefined;
  /** Asymmetric JWS algorithms only. */
  algorithms: string[];
  clockToleranceS: number;
  scopesClaim: string;
  environmentsClaim: string;
  /** Minimum seconds between JWKS refetches triggered by an unknown kid. */
  jwksCooldownS: number;
  /**
   * The `typ` header every token must carry (RFC 9068's `at+jwt`; `application/` prefix and case ignored);
   * undefined: any. Production's default is `at+jwt` (OIDC_REQUIRED_TYP=none turns the check off).
   */
  requiredTyp: string | undefined;
  /**
   * Tokens whose `iat` is older than this are refused, and so are tokens without `iat` and tokens whose `exp`
   * lies further than this after their `iat`; undefined: no limit but `exp`. Production's default is
   * PRODUCTION_MAX_TOKEN_AGE_S (OIDC_MAX_TOKEN_AGE_S=none turns the limit off).
   */
  maxTokenAgeS: number | undefined;
}

/** Production's `typ` when OIDC_REQUIRED_TYP is not set: RFC 9068 access tokens, so an ID token is not taken for one. */
export const PRODUCTION_REQUIRED_TYP = 'at+jwt';
/** Production's maximum token age (and lifetime, `exp - iat`) when OIDC_MAX_TOKEN_AGE_S is not set: one hour. */
export const PRODUCTION_MAX_TOKEN_AGE_S = 3600;
/** The value of OIDC_REQUIRED_TYP and OIDC_MAX_TOKEN_AGE_S that turns the check off, in production too. */
const OFF = 'none';

/** Asymmetric JWS algorithms, by the key type (and curve) that can verify them. */
const JWS_ALGORITHMS: Record<string, (key: KeyObject) => boolean> = {
  RS256: (key) => key.asymmetricKeyType === 'rsa',
  RS384: (key) => key.asymmetricKeyType === 'rsa',
  RS512: (key) => key.asymmetricKeyType === 'rsa',
  PS256: (key) => key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss',
  PS384: (key) => key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss',
  PS512: (key) => key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss',
  ES256: (key) => key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1',
  ES384: (key) => key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'secp384r1',
  ES512: (key) => key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'secp521r1',
  EdDSA: (key) => key.asymmetricKeyType === 'ed25519',
  Ed25519: (key) => key.asymmetricKeyType === 'ed25519',
};

function parsePublicKey(text: string, problems: string[]): KeyObject | undefined {
  // Deployment tools often flatten a PEM onto one line with literal \n sequences.
  const value = text.replaceAll('\\n', '\n');
  try {
    if (value.startsWith('{')) {
      const jwk = JSON.parse(value) as Record<string, unknown>;
      if (jwk.kty === 'oct' || 'd' in jwk) {
        problems.push('OIDC_PUBLIC_KEY must be a public key; a private or shared-secret JWK is refused');
        return undefined;
      }
      return createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    }
    if (/PRIVATE KEY/.test(value)) {
      problems.push('OIDC_PUBLIC_KEY must be a public key (BEGIN PUBLIC KEY); a private key is refused');
      return undefined;
    }
    return createPublicKey(value);
  } catch {
    problems.push('OIDC_PUBLIC_KEY must be a PEM public key (-----BEGIN PUBLIC KEY-----) or a public JWK in JSON');
    return undefined;
  }
}

function parseJwksUrl(text: string, problems: string[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.push('OIDC_JWKS_URL must be a URL, e.g. https://idp.example.com/.well-known/jwks.json');
    return undefined;
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    problems.push(
      'OIDC_JWKS_URL must use https (plain http only for localhost): keys fetched in clear could be replaced in transit',
    );
    return undefined;
  }
  return url;
}

/** OIDC_* variables after the shared schema in config.ts has parsed them. */
export interface OidcEnvironment {
  OIDC_ISSUER?: string | undefined;
  OIDC_AUDIENCE?: string | undefined;
  OIDC_JWKS_URL?: string | undefined;
  OIDC_PUBLIC_KEY?: string | undefined;
  OIDC_ALGORITHMS?: string[] | undefined;
  OIDC_CLOCK_TOLERANCE_S: number;
  OIDC_SCOPES_CLAIM: string;
  OIDC_ENVIRONMENTS_CLAIM: string;
  OIDC_JWKS_COOLDOWN_S: number;
  OIDC_REQUIRED_TYP?: string | undefined;
  OIDC_MAX_TOKEN_AGE_S?: number | 'none' | undefined;
}

/**
 * Checks the OIDC settings together; pushes one message per problem. Undefined when OIDC is off or invalid.
 * In production (NODE_ENV=production) an unset OIDC_REQUIRED_TYP means `at+jwt` and an unset
 * OIDC_MAX_TOKEN_AGE_S one hour; `none` turns either off explicitly, in every mode.
 */
export function parseOidcConfig(
  raw: OidcEnvironment,
  problems: string[],
  nodeEnv: 'development' | 'test' | 'production' = 'development',
): OidcConfig | undefined {
  const issuer = raw.OIDC_ISSUER;
  if (issuer === undefined) {
    const stray = (
      [
        'OIDC_AUDIENCE',
        'OIDC_JWKS_URL',
        'OIDC_PUBLIC_KEY',
        'OIDC_ALGORITHMS',
        'OIDC_REQUIRED_TYP',
        'OIDC_MAX_TOKEN_AGE_S',
      ] as const
    ).filter((name) => raw[name] !== undefined);
    if (stray.length > 0)
      problems.push(`${stray.join(', ')} set without OIDC_ISSUER: set OIDC_ISSUER to enable JWT bearer tokens`);
    return undefined;
  }
  const before = problems.length;
  if (raw.OIDC_AUDIENCE === undefined)
    problems.push('OIDC_AUDIENCE is required with OIDC_ISSUER (the audience this service expects in tokens)');
  if ((raw.OIDC_JWKS_URL === undefined) === (raw.OIDC_PUBLIC_KEY === undefined)) {
    problems.push('Set exactly one of OIDC_JWKS_URL and OIDC_PUBLIC_KEY with OIDC_ISSUER');
  }
  const jwksUrl = raw.OIDC_JWKS_URL === undefined ? undefined : parseJwksUrl(raw.OIDC_JWKS_URL, problems);
  const publicKey = raw.OIDC_PUBLIC_KEY === undefined ? undefined : parsePublicKey(raw.OIDC_PUBLIC_KEY, problems);
  const algorithms = raw.OIDC_ALGORITHMS ?? ['RS256'];
  if (algorithms.length === 0) problems.push('OIDC_ALGORITHMS must name at least one algorithm, e.g. RS256,ES256');
  for (const algorithm of algorithms) {
    if (algorithm.toLowerCase() === 'none')
      problems.push('OIDC_ALGORITHMS must not include "none": unsigned tokens are never accepted');
    else if (/^HS/i.test(algorithm))
      problems.push(
        `OIDC_ALGORITHMS must not include ${algorithm}: shared-secret algorithms are not accepted (a public key must never verify an HMAC)`,
      );
    else if (!(algorithm in JWS_ALGORITHMS))
      problems.push(`OIDC_ALGORITHMS: ${algorithm} is not supported; use ${Object.keys(JWS_ALGORITHMS).join(', ')}`);
    else if (publicKey && !JWS_ALGORITHMS[algorithm]!(publicKey))
      problems.push(
        `OIDC_ALGORITHMS: ${algorithm} cannot be verified with the ${publicKey.asymmetricKeyType} key of OIDC_PUBLIC_KEY`,
      );
  }
  if (problems.length > before) return undefined;
  const production = nodeEnv === 'production';
  return {
    issuer,
    audience: raw.OIDC_AUDIENCE!,
    jwksUrl,
    publicKey,
    algorithms: [...new Set(algorithms)],
    clockToleranceS: raw.OIDC_CLOCK_TOLERANCE_S,
    scopesClaim: raw.OIDC_SCOPES_CLAIM,
    environmentsClaim: raw.OIDC_ENVIRONMENTS_CLAIM,
    jwksCooldownS: raw.OIDC_JWKS_COOLDOWN_S,
    requiredTyp:
      raw.OIDC_REQUIRED_TYP === undefined
        ? production
          ? PRODUCTION_REQUIRED_TYP
          : undefined
        : raw.OIDC_REQUIRED_TYP.toLowerCase() === OFF
          ? undefined
          : raw.OIDC_REQUIRED_TYP,
    maxTokenAgeS:
      raw.OIDC_MAX_TOKEN_AGE_S === undefined
        ? production
          ? PRODUCTION_MAX_TOKEN_AGE_S
          : undefined
        : raw.OIDC_MAX_TOKEN_AGE_S === OFF
          ? undefined
          : raw.OIDC_MAX_TOKEN_AGE_S,
  };
}

/** OIDC/JWT bearer tokens (parseOidcConfig reads them); none of them when OIDC_ISSUER is not set. */
export const oidcEnv = {
  OIDC_ISSUER: z.string().trim().optional(),
  OIDC_AUDIENCE: z.string().trim().optional(),
  OIDC_JWKS_URL: z.string().trim().optional(),
  OIDC_PUBLIC_KEY: z.string().trim().optional(),
  OIDC_ALGORITHMS: z.string().transform(commaList).optional(),
  OIDC_CLOCK_TOLERANCE_S: integer('OIDC_CLOCK_TOLERANCE_S', 0, 300).default(30),
  OIDC_SCOPES_CLAIM: z.string().trim().min(1).max(200).default('scope'),
  OIDC_ENVIRONMENTS_CLAIM: z.string().trim().min(1).max(200).default('environments'),
  OIDC_JWKS_COOLDOWN_S: integer('OIDC_JWKS_COOLDOWN_S', 0, 3600).default(30),
  OIDC_REQUIRED_TYP: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\x21-\x7e]+$/, 'OIDC_REQUIRED_TYP must be a media type such as at+jwt, or none')
    .optional(),
  OIDC_MAX_TOKEN_AGE_S: z
    .string()
    .trim()
    .regex(/^(\d+|none)$/, 'OIDC_MAX_TOKEN_AGE_S must be a whole number of seconds, or none')
    .transform((v) => (v === 'none' ? ('none' as const) : Number(v)))
    .refine(
      (v) => v === 'none' || (v >= 1 && v <= 31 * 86_400),
      'OIDC_MAX_TOKEN_AGE_S must be between 1 and 2678400, or none',
    )
    .optional(),
};
