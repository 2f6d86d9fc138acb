import { describe, expect, it } from 'vitest';
import { businessDateOf, endOfDate, startOfDate } from '../../../src/features/clock/index.js';

describe('business dates in a time zone', () => {
  it("a date's local midnight, across daylight-saving changes", () => {
    expect(startOfDate('2026-12-02', 'America/New_York').toISOString()).toBe('2026-12-02T05:00:00.000Z');
    expect(startOfDate('2026-07-02', 'America/New_York').toISOString()).toBe('2026-07-02T04:00:00.000Z');
    // The day of the spring change (02:00 → 03:00) begins at its ordinary midnight; the next one an hour earlier in UTC.
    expect(startOfDate('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(endOfDate('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(startOfDate('2026-12-02', 'Asia/Tokyo').toISOString()).toBe('2026-12-01T15:00:00.000Z');
    // Where midnight itself is skipped (Havana springs from 00:00 to 01:00), the date begins at its first instant.
    expect(businessDateOf(startOfDate('2026-03-08', 'America/Havana'), 'America/Havana')).toBe('2026-03-08');
  });

  it('the business date is the local date, not the UTC one', () => {
    expect(businessDateOf(new Date('2026-12-03T03:00:00Z'), 'America/New_York')).toBe('2026-12-02');
    expect(businessDateOf(new Date('2026-12-03T03:00:00Z'), 'Europe/Berlin')).toBe('2026-12-03');
  });
});
