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
