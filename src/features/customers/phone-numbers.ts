import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Phone } from './customer.js';

/**
 * How the phone filter matches (docs/adr/0055-external-ids-and-metadata.md): both the stored numbers and the
 * searched one become E.164 through libphonenumber-js, so "(555) 123-4567", "555.123.4567" and "+1 555 123 4567"
 * are one number. A number without a country calling code is read as one of DEFAULT_PHONE_REGION: the
 * contract's customers are US persons (a social security number each). The key does not require the number to
 * be assigned to anyone (the contract's own samples use 555 numbers), only to be readable as a phone number.
 */
export const DEFAULT_PHONE_REGION = 'US';

/** The number in E.164 ("+15551234567"), or undefined when it cannot be read as a phone number. */
export function phoneSearchKey(number: string): string | undefined {
  return parsePhoneNumberFromString(number, DEFAULT_PHONE_REGION)?.number;
}

/** The distinct search keys of a customer's phone numbers (a number without one cannot be found by phone). */
export function phoneSearchKeys(phones: readonly Phone[]): string[] {
  const keys = new Set<string>();
  for (const phone of phones) {
    const key = phoneSearchKey(phone.number);
    if (key !== undefined) keys.add(key);
  }
  return [...keys];
}
