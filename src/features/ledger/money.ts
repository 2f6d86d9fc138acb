import currencyCodes from 'currency-codes';

/**
 * Amounts cross the API as JSON numbers (REST, as the spec shows `amount`) or decimal strings (GraphQL's
 * Decimal) and are kept exact from here on: the domain passes them as decimal text and PostgreSQL does
 * the arithmetic in NUMERIC. A number is accepted only when its shortest decimal form has at most the
 * currency's minor-unit digits (12.345 USD is refused, not rounded), so a client never loses a cent to a
 * float it did not notice.
 */

/** Larger than any single movement a depository account makes, and small enough that every value with up
 *  to three decimals is exact as a JSON number (15 significant digits). */
export const MAX_AMOUNT = 1_000_000_000_000;

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/;

/** Minor-unit digits of an ISO 4217 code: 2 for USD, 0 for JPY, 3 for KWD. */
export function minorUnitDigits(currency: string): number {
  return currencyCodes.code(currency)?.digits ?? 2;
}

/** No ISO 4217 currency has more (CLF and UYW have 4): the check before the currency is known. */
export const MOST_MINOR_UNIT_DIGITS = 4;

export type AmountProblem = 'not-a-number' | 'not-positive' | 'too-large' | 'too-many-decimals';

/**
 * The amount as exact decimal text, or what is wrong with it. `value` is a number or decimal text. Without
 * a currency (a posting, whose statement checks the account's currency itself: currency_minor_digits),
 * only what no currency allows is refused here.
 */
export function exactAmount(
  value: number | string,
  currency: string | null,
): { amount: string } | { problem: AmountProblem } {
  if (typeof value === 'number' && !Number.isFinite(value)) return { problem: 'not-a-number' };
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (typeof value === 'number' && value <= 0) return { problem: 'not-positive' };
  // String(1e-7) is "1e-7": too small for any currency; huge numbers are refused before they print so.
  if (/e/i.test(text)) return { problem: Number(text) > 0 && Number(text) < 1 ? 'too-many-decimals' : 'too-large' };
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return { problem: 'not-a-number' };
  const [, whole, fraction = ''] = match;
  const trimmedFraction = fraction.replace(/0+$/, '');
  const normalized = `${whole!.replace(/^0+(?=\d)/, '')}${trimmedFraction ? `.${trimmedFraction}` : ''}`;
  if (Number(normalized) <= 0) return { problem: 'not-positive' };
  if (Number(normalized) >= MAX_AMOUNT) return { problem: 'too-large' };
  if (trimmedFraction.length > (currency === null ? MOST_MINOR_UNIT_DIGITS : minorUnitDigits(currency)))
    return { problem: 'too-many-decimals' };
  return { amount: normalized };
}

export function amountProblemMessage(problem: AmountProblem, currency: string | null): string {
  switch (problem) {
    case 'not-a-number':
      return 'Must be a decimal number such as 25.5.';
    case 'not-positive':
      return 'Must be greater than 0.';
    case 'too-large':
      return `Must be less than ${MAX_AMOUNT}.`;
    case 'too-many-decimals': {
      if (currency === null) return `Must have at most ${MOST_MINOR_UNIT_DIGITS} decimals.`;
      const digits = minorUnitDigits(currency);
      return digits === 0
        ? `Must be a whole number: ${currency} has no minor unit.`
        : `Must have at most ${digits} decimals for ${currency}.`;
    }
  }
}
