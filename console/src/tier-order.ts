/** Balance tiers' order, checked in the browser with the service's own words (src/features/products/product.service.ts). */

/** The service's words for a tier not above the one before it (its NOT_ASCENDING detail, product.service.ts). */
export const TIER_NOT_ASCENDING = "Must be greater than the previous tier's minimumBalance.";

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Compares two non-negative decimals as text (never through a float): below 0, 0 or above 0; null when either is not a
 * plain decimal (its own check, or the API's, says so).
 */
export function compareDecimalText(left: string, right: string): number | null {
  const a = DECIMAL.exec(left.trim());
  const b = DECIMAL.exec(right.trim());
  if (!a || !b) return null;
  const wholeA = a[1]!.replace(/^0+(?=.)/, '');
  const wholeB = b[1]!.replace(/^0+(?=.)/, '');
  if (wholeA.length !== wholeB.length) return wholeA.length - wholeB.length;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  const width = Math.max(a[2]?.length ?? 0, b[2]?.length ?? 0);
  const fractionA = (a[2] ?? '').padEnd(width, '0');
  const fractionB = (b[2] ?? '').padEnd(width, '0');
  return fractionA === fractionB ? 0 : fractionA < fractionB ? -1 : 1;
}

/** A tier's minimum balance refused before anything is sent: not above the previous tier's, as the API would. */
export function tierOrderProblem(tiers: readonly { minimumBalance: string }[], index: number): string | null {
  if (index === 0) return null;
  const order = compareDecimalText(tiers[index]!.minimumBalance, tiers[index - 1]!.minimumBalance);
  return order !== null && order <= 0 ? TIER_NOT_ASCENDING : null;
}
