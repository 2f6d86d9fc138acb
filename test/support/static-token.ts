/** A static API_TOKENS value that meets src/config/static-tokens.ts, fixed so that tests can name it. */
export const TEST_STATIC_TOKEN = 'static-token-for-tests-jKBeBVuYKnudu_cdeXvB4WgHEFtzO-IB_44gi3acRGo';

/** The key that names static tokens' principals (staticTokenLabelKey) in tests that build an authenticator themselves. */
export const TEST_LABEL_KEY = Buffer.alloc(32, 7);
