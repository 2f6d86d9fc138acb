import type { RouteDeprecation } from './operations/route.js';

/** A deprecated operation lives at least this long after its announcement (docs/adr/0063-versions-changelog-deprecation.md). */
export const MINIMUM_DEPRECATION_MONTHS = 6;

const dayStart = (day: string, field: string): Date => {
  const date = new Date(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(date.getTime()))
    throw new Error(`deprecation ${field} must be a day (YYYY-MM-DD), got ${day}`);
  return date;
};

/** Refuses a deprecation whose sunset comes less than six months after its announcement. */
export function checkDeprecation(operationId: string, deprecation: RouteDeprecation): void {
  const announced = dayStart(deprecation.announced, 'announced');
  const earliest = new Date(announced);
  earliest.setUTCMonth(earliest.getUTCMonth() + MINIMUM_DEPRECATION_MONTHS);
  if (dayStart(deprecation.sunset, 'sunset') < earliest) {
    throw new Error(
      `${operationId}: a deprecated operation lives at least ${MINIMUM_DEPRECATION_MONTHS} months (sunset ${deprecation.sunset} is before ${earliest.toISOString().slice(0, 10)})`,
    );
  }
}

/**
 * The headers of every answer of a deprecated operation: `Deprecation` (RFC 9745: `@` and the announcement's
 * Unix time) and `Sunset` (RFC 8594: an HTTP-date, the earliest removal).
 */
export function deprecationHeaders(deprecation: RouteDeprecation): Record<'Deprecation' | 'Sunset', string> {
  return {
    Deprecation: `@${Math.floor(dayStart(deprecation.announced, 'announced').getTime() / 1000)}`,
    Sunset: dayStart(deprecation.sunset, 'sunset').toUTCString(),
  };
}
