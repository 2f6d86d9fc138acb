import { z } from 'zod';
import { commaList, integer, type Settings } from './settings.js';

/** The time zone of an environment that ENVIRONMENT_TIME_ZONES does not name, nor its `*` entry. */
export const DEFAULT_TIME_ZONE = 'America/New_York';
/** The one name no adjustable clock may ever have: production's time is the real time. */
const NEVER_ADJUSTABLE = 'production';

const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** `sandbox=America/Los_Angeles,*=America/Chicago` → its pairs; undefined for an entry that is no `name=Zone`. */
const zonePairs = (entries: string[]) => entries.map((entry) => /^([^=\s]+)\s*=\s*(\S+)$/.exec(entry));

/**
 * Each environment's clock (docs/adr/0102-environment-clocks-and-end-of-day.md): the time zone its business
 * date and its end of day follow, which environments may be moved forward (a sandbox's time travel), and how
 * the end of day runs (how often each instance looks for a day to close, how long a run's lease lasts).
 */
export const clockEnv = {
  ENVIRONMENT_TIME_ZONES: z
    .string()
    .transform(commaList)
    .refine(
      (entries) => zonePairs(entries).every((pair) => pair !== null),
      'ENVIRONMENT_TIME_ZONES entries must look like environment=Area/City (or *=Area/City for every other environment)',
    )
    .refine(
      (entries) => zonePairs(entries).every((pair) => pair === null || isTimeZone(pair[2]!)),
      'ENVIRONMENT_TIME_ZONES must name IANA time zones (e.g. America/New_York)',
    )
    .optional(),
  ADJUSTABLE_CLOCK_ENVIRONMENTS: z
    .string()
    .transform(commaList)
    .refine(
      (names) => !names.includes(NEVER_ADJUSTABLE),
      `ADJUSTABLE_CLOCK_ENVIRONMENTS must never list ${NEVER_ADJUSTABLE}: its time is the real time`,
    )
    .default(['sandbox']),
  END_OF_DAY_INTERVAL_MS: integer('END_OF_DAY_INTERVAL_MS', 100, 3_600_000).default(60_000),
  END_OF_DAY_LEASE_MS: integer('END_OF_DAY_LEASE_MS', 1000, 3_600_000).default(60_000),
};

export const clockConfig = (raw: Settings<typeof clockEnv>, environments: readonly string[]) => {
  const zones = new Map(
    zonePairs(raw.ENVIRONMENT_TIME_ZONES ?? []).flatMap((pair) => (pair ? [[pair[1]!, pair[2]!] as const] : [])),
  );
  const fallback = zones.get('*') ?? DEFAULT_TIME_ZONE;
  return {
    clock: {
      /** Each configured environment's IANA time zone (ENVIRONMENT_TIME_ZONES; America/New_York by default). */
      timeZones: Object.fromEntries(environments.map((name) => [name, zones.get(name) ?? fallback])) as Record<
        string,
        string
      >,
      /** The environments whose clock POST /{environment}/clock/advance may move (ADJUSTABLE_CLOCK_ENVIRONMENTS). */
      adjustable: [...new Set(raw.ADJUSTABLE_CLOCK_ENVIRONMENTS)],
      /** How often each instance looks for an ended business date to close (END_OF_DAY_INTERVAL_MS). */
      endOfDayIntervalMs: raw.END_OF_DAY_INTERVAL_MS,
      /** How long an instance's claim on a day's run lasts without renewal (END_OF_DAY_LEASE_MS). */
      endOfDayLeaseMs: raw.END_OF_DAY_LEASE_MS,
    },
  };
};
