/**
 * What a static API_TOKENS entry must be: at least 32 random bytes' worth, so that it cannot be guessed.
 *
 * The rule, precisely:
 * - only the characters of base64 and base64url (A–Z, a–z, 0–9, +, /, -, _), with at most two trailing `=`
 *   of padding: what `openssl rand -base64 32`, `openssl rand -hex 32` and every token generator print;
 * - hex (only 0–9 and a–f, or only 0–9 and A–F): at least 64 digits (32 bytes); otherwise at least 43
 *   characters without the padding (32 bytes in base64). A fixed prefix such as `svc_` counts toward the
 *   length, so a prefixed token should carry its full 32 random bytes after it;
 * - not a known placeholder (the examples in .env.example, deploy/ and the docs) and no placeholder words
 *   (change-me, replace-with, example, placeholder, …);
 * - not obviously low in entropy: fewer distinct characters than a random value of that length would all
 *   but certainly have, a run of 8 equal characters, a repetition of a shorter string, or mostly
 *   consecutive characters ("abcdef…", "123456…").
 * A random value fails these checks with a probability below one in a million.
 */

const ALPHABET = /^[A-Za-z0-9+/_-]+={0,2}$/;
const HEX = /^(?:[0-9a-f]+|[0-9A-F]+)$/;
export const MIN_HEX_DIGITS = 64;
export const MIN_BASE64_CHARACTERS = 43;

/** Example values shipped with this repository: they pass the length rule and must never be used. */
const KNOWN_PLACEHOLDERS = new Set([
  'change-me-to-32-random-hex-characters-or-more',
  'replace-with-a-long-random-token-1',
  'replace-with-a-long-random-token-2',
]);
const PLACEHOLDER_WORDS =
  /change[-_]?me|replace[-_]?(with|me)|placeholder|example|your[-_]?(api[-_]?)?token|secret[-_]?here|dummy|insecure/i;

const distinctCharacters = (token: string) => new Set(token).size;
const hasRun = (token: string, length: number) => new RegExp(`(.)\\1{${length - 1}}`).test(token);

function isRepetition(token: string): boolean {
  for (let period = 1; period <= token.length / 2; period++) {
    if (token.length % period !== 0) continue;
    if (token.slice(0, period).repeat(token.length / period) === token) return true;
  }
  return false;
}

/** More than half of the neighbouring pairs are equal or one apart ("aaaa", "abcd", "9876"). */
function mostlySequential(token: string): boolean {
  let steps = 0;
  for (let i = 1; i < token.length; i++) if (Math.abs(token.charCodeAt(i) - token.charCodeAt(i - 1)) <= 1) steps++;
  return steps * 2 > token.length - 1;
}

/** Why `token` is not acceptable as a static token, or undefined when it is. Never repeats the token. */
export function staticTokenProblem(token: string): string | undefined {
  if (!ALPHABET.test(token))
    return 'must use only base64/base64url characters (A-Z a-z 0-9 + / - _, optional = padding) or hex digits';
  const body = token.replace(/=+$/, '');
  const hex = HEX.test(body);
  if (hex && body.length < MIN_HEX_DIGITS)
    return `is hex and must have at least ${MIN_HEX_DIGITS} digits (32 random bytes)`;
  if (body.length < MIN_BASE64_CHARACTERS)
    return `must be at least ${MIN_BASE64_CHARACTERS} characters long (32 random bytes in base64), or ${MIN_HEX_DIGITS} hex digits`;
  if (KNOWN_PLACEHOLDERS.has(token.toLowerCase()) || PLACEHOLDER_WORDS.test(token))
    return 'is a placeholder from an example, not a secret';
  if (distinctCharacters(body) < (hex ? 10 : 16) || hasRun(body, 8) || isRepetition(body) || mostlySequential(body))
    return 'is not random enough (repeated or sequential characters)';
  return undefined;
}

/** The problems of every entry, each naming its position in API_TOKENS (1-based), never its value. */
export function staticTokenProblems(tokens: readonly string[]): string[] {
  return tokens.flatMap((token, index) => {
    const problem = staticTokenProblem(token);
    return problem === undefined
      ? []
      : [
          `API_TOKENS entry ${index + 1} ${problem}; generate one with: openssl rand -base64 32 (or openssl rand -hex 32)`,
        ];
  });
}
