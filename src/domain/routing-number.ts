/**
 * ABA routing numbers (docs/adr/0107): 9 digits whose checksum 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) is a
 * multiple of 10. The configuration checks each environment's at startup; the look-up compares with it.
 */
export function abaRoutingNumberValid(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

/** A valid ABA routing number for sandboxes and development: the Federal Reserve Bank of Boston's. */
export const DEFAULT_ROUTING_NUMBER = '011000015';
