/**
 * Managed API tokens' public face, for src/auth (which verifies them), the CLI (`npm run token`) and the
 * composition root: the token format, its record and store, its audit events.
 */
export {
  API_TOKEN_PREFIX,
  type ApiTokenRecord,
  type ApiTokenStore,
  type ApiTokenSummary,
  generateApiToken,
  isAccessScope,
  ManagedTokenAuthenticator,
  type ManagedTokenAuthenticatorOptions,
  type NewApiToken,
} from './api-tokens.js';
export {
  ManagedTokenCache,
  type ManagedTokenCacheOptions,
  type TokenChanges,
  UNNOTIFIED_MAX_AGE_MS,
} from './managed-token-cache.js';
export { apiTokenAuditEvents, apiTokenResourceId } from './api-token-audit.js';
export { PrismaApiTokenStore } from './api-token.store.js';
