/**
 * Social security number rules (SSA): nine digits, written with or without the dashes of
 * AAA-GG-SSSS. Area 000, 666 and 900–999, group 00 and serial 0000 are never issued.
 */
export const SSN_RULE =
  'Must be a valid social security number: 9 digits as AAA-GG-SSSS or AAAGGSSSS, not an unissued area (000, 666, 900-999), group (00) or serial (0000).';

/** The nine digits of a valid SSN, or undefined when the value is not one. */
export function normaliseSsn(value: string): string | undefined {
  const match = /^(\d{3})-?(\d{2})-?(\d{4})$/.exec(value);
  if (!match) return undefined;
  const [, area, group, serial] = match as unknown as [string, string, string, string];
  // Dashes are all or nothing: 123-456789 is more likely a typo than an SSN.
  if (value.length === 10) return undefined;
  if (area === '000' || area === '666' || area >= '900') return undefined;
  if (group === '00' || serial === '0000') return undefined;
  return `${area}${group}${serial}`;
}
