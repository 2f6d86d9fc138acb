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

/** An ISO 8601 instant, shown in UTC as the API gives it, to the minute. */
export const instant = (iso: string | null | undefined): string =>
  iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '';
