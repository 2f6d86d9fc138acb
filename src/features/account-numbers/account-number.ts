import { randomInt } from 'node:crypto';

/**
 * Account and routing numbers (docs/adr/0107). An account number is 12 digits: 11 drawn from the operating
 * system's CSPRNG (node:crypto randomInt, the first never 0 so no system strips a leading zero) and a Luhn
 * (mod 10) check digit, which catches every single-digit error and most adjacent transpositions of a number
 * keyed in by hand. A routing number is the ABA's 9 digits with its 3-7-1 checksum.
 */
export const ACCOUNT_NUMBER_LENGTH = 12;

/** The Luhn check digit of `digits` (the digit that, appended, makes the whole pass luhnValid). */
export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    // Doubling starts at the rightmost digit of the payload (it is second from the right once the check digit is on).
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** True when the digits' last one is the Luhn check digit of the others. */
export const luhnValid = (number: string): boolean =>
  /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === Number(number.at(-1));

/** A new random account number: 12 digits, the last a Luhn check digit. */
export function newAccountNumber(random: (max: number) => number = randomInt): string {
  let payload = String(1 + random(9));
  for (let i = 1; i < ACCOUNT_NUMBER_LENGTH - 1; i++) payload += String(random(10));
  return `${payload}${luhnCheckDigit(payload)}`;
}

/** Digits only, 10 to 12 long, with a valid Luhn check digit: the only account numbers a look-up can find. */
export const isAccountNumber = (value: string): boolean => /^\d{10,12}$/.test(value) && luhnValid(value);

export { abaRoutingNumberValid, DEFAULT_ROUTING_NUMBER } from '../../domain/routing-number.js';

export const ACCOUNT_NUMBER_STATUSES = ['ACTIVE', 'DISABLED', 'CANCELED'] as const;
export type AccountNumberStatus = (typeof ACCOUNT_NUMBER_STATUSES)[number];
export const INBOUND_ACH_DEBITS = ['ALLOWED', 'BLOCKED'] as const;
export type InboundAchDebits = (typeof INBOUND_ACH_DEBITS)[number];

/** The last four digits: all any answer but the scoped list and the look-up's own input ever holds. */
export const last4Of = (number: string): string => number.slice(-4);
