/** An exact decimal from the API in its currency, formatted without ever passing through a float. */
export function money(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount as Intl.StringNumericLiteral);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A customer's full legal name: first, middle (when there is one) and last; empty for a business (no names). */
export const fullName = (customer: {
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
}): string => [customer.firstName, customer.middleName, customer.lastName].filter(Boolean).join(' ');

/** What a customer is called: a business's legal name, a person's full legal name. */
export const customerName = (customer: {
  business?: { legalName: string } | null;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
}): string => customer.business?.legalName ?? fullName(customer);

/** The kind of customer in words (shown as text, never as a colour alone). */
export const customerKind = (customerType: string): string => (customerType === 'BUSINESS' ? 'Business' : 'Individual');

/** An enum value of the API in words: AUTHORIZED_SIGNER is "Authorized signer". */
export const enumLabel = (value: string): string => {
  const words = value.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const ENTITY_TYPES: Readonly<Record<string, string>> = {
  CORPORATION: 'Corporation',
  LLC: 'LLC',
  PARTNERSHIP: 'Partnership',
  SOLE_PROPRIETORSHIP: 'Sole proprietorship',
  NONPROFIT: 'Nonprofit',
  TRUST: 'Trust',
};

/** A business's entity type in words (LLC stays LLC). */
export const entityTypeLabel = (entityType: string): string => ENTITY_TYPES[entityType] ?? enumLabel(entityType);

/** An ISO 8601 instant, shown in UTC as the API gives it, to the minute. */
export const instant = (iso: string | null | undefined): string =>
  iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '';

/**
 * A rate the API answers as a fraction of 1 ("0.0425") as a percentage ("4.25%"), by moving the decimal point in
 * the text: never through a float, so "0.000001" stays exact.
 */
export function percent(fraction: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(fraction.trim());
  if (!match) return fraction;
  const [, sign = '', whole = '', decimals = ''] = match;
  const digits = `${whole}${decimals.padEnd(2, '0')}`;
  const point = whole.length + 2;
  const integer = digits.slice(0, point).replace(/^0+(?=\d)/, '') || '0';
  const rest = digits.slice(point).replace(/0+$/, '');
  return `${sign}${integer}${rest ? `.${rest}` : ''}%`;
}

/**
 * A percentage typed by a person ("4.25") as the API's fraction of 1 ("0.0425"), exactly; null when the text is not
 * a plain decimal number.
 */
export function fractionOfPercent(text: string): string | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole = '', decimals = ''] = match;
  const padded = whole.padStart(3, '0');
  const integer = padded.slice(0, -2).replace(/^0+(?=\d)/, '');
  const rest = `${padded.slice(-2)}${decimals}`.replace(/0+$/, '');
  return rest ? `${integer}.${rest}` : integer;
}

/** An exact amount that may carry more decimals than its currency (accrued interest): none of them rounded away. */
export function exactMoney(amount: string, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 12 }).format(
      amount as Intl.StringNumericLiteral,
    );
  } catch {
    return `${amount} ${currency}`;
  }
}
