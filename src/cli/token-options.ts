import currencyCodes from 'currency-codes';
import type { PostingLimits } from '../domain/caller.js';
import { amountProblemMessage, exactAmount } from '../features/ledger/index.js';
import { UsageError } from './cli-database.js';

/**
 * The options of `npm run token -- create` that go beyond scopes and environments: an expiry and limits on
 * the money the token may move. Each mistake is a UsageError (exit code 64) saying what to write instead.
 */

const DURATION = /^(\d{1,6})(d|h|m)$/;
const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;
/** Ten years: a longer life is no expiry at all, and is more likely a typo. */
const MAX_LIFETIME_MS = 3650 * UNIT_MS.d;

/** `--expires-in 90d` (days), `12h` (hours) or `30m` (minutes): the instant the token stops working. */
export function expiryFrom(text: string | undefined, now: Date): Date | null {
  if (text === undefined) return null;
  const match = DURATION.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : 0;
  if (!match || ms <= 0 || ms > MAX_LIFETIME_MS)
    throw new UsageError(
      '--expires-in must be a positive whole number of days, hours or minutes, at most 3650d: e.g. 90d, 12h or 30m',
    );
  return new Date(now.getTime() + ms);
}

const amountOption = (option: string, text: string, currency: string | null): string => {
  const exact = exactAmount(text, currency);
  if ('problem' in exact) throw new UsageError(`${option}: ${amountProblemMessage(exact.problem, currency)}`);
  return exact.amount;
};

/**
 * `--max-amount <decimal>` (the largest amount of one posting, any currency) and `--daily-limit
 * <currency>:<decimal>` (repeatable: the most per UTC day in that currency). Undefined: no limits.
 */
export function limitsFrom(maxAmount: string | undefined, dailyLimits: readonly string[]): PostingLimits | undefined {
  const daily: Record<string, string> = {};
  for (const entry of dailyLimits) {
    const [code = '', amount, ...rest] = entry.split(':');
    const currency = code.trim().toUpperCase();
    if (amount === undefined || rest.length > 0)
      throw new UsageError('--daily-limit must be <currency>:<amount>, e.g. --daily-limit USD:10000');
    if (!/^[A-Z]{3}$/.test(currency) || currencyCodes.code(currency) === undefined)
      throw new UsageError(`--daily-limit: ${JSON.stringify(code)} is not an ISO 4217 currency code`);
    if (Object.hasOwn(daily, currency)) throw new UsageError(`--daily-limit names ${currency} twice`);
    daily[currency] = amountOption(`--daily-limit ${currency}`, amount, currency);
  }
  const limits: PostingLimits = {
    ...(maxAmount !== undefined && { maxAmount: amountOption('--max-amount', maxAmount, null) }),
    ...(Object.keys(daily).length > 0 && { daily }),
  };
  return Object.keys(limits).length > 0 ? limits : undefined;
}
