/**
 * An environment's clock as the API answers it, and the calendar arithmetic of business dates in its time zone.
 * Every calendar day is a business (processing) date: the end of day runs every day, as a bank's does for
 * interest and expiry; `businessDate` is the environment's local date (docs/adr/0102).
 */
export interface EnvironmentClockReading {
  environment: string;
  now: Date;
  /** YYYY-MM-DD, the environment's local date at `now`. */
  businessDate: string;
  /** The IANA time zone of the environment's business dates (ENVIRONMENT_TIME_ZONES). */
  timeZone: string;
  /** May POST /{environment}/clock/advance move it (ADJUSTABLE_CLOCK_ENVIRONMENTS)? */
  adjustable: boolean;
}

/** What an advance did: the environment's time before and after, and how many ended business dates it closed. */
export interface ClockAdvance {
  from: Date;
  to: Date;
  businessDaysRun: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock fields of `at` in `timeZone`. */
function wallClock(
  at: Date,
  timeZone: string,
): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  const parts = Object.fromEntries(
    formatterFor(timeZone)
      .formatToParts(at)
      .filter((part) => part.type !== 'literal')
      .map((part) => [part.type, Number(part.value)]),
  );
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The local date (YYYY-MM-DD) of `at` in `timeZone`. */
export function businessDateOf(at: Date, timeZone: string): string {
  const wall = wallClock(at, timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

/** The date after `date` (YYYY-MM-DD), by the calendar. */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** The date before `date` (YYYY-MM-DD), by the calendar. */
export function previousDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (YYYY-MM-DD), 0 when equal, negative when `to` comes first. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/**
 * The instant `date` begins in `timeZone` (its local midnight; on a day whose midnight a daylight-saving
 * change skips, the first instant of that date). Found by correcting a UTC guess by the zone's offset, twice,
 * which settles across an offset change.
 */
export function startOfDate(date: string, timeZone: string): Date {
  const target = Date.parse(`${date}T00:00:00Z`);
  let guess = target;
  for (let round = 0; round < 3; round++) {
    const wall = wallClock(new Date(guess), timeZone);
    const wallMs = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
    const correction = target - wallMs;
    if (correction === 0) break;
    guess += correction;
  }
  // A skipped midnight leaves the guess in the date before: the date's first instant is then its 01:00 or so.
  while (businessDateOf(new Date(guess), timeZone) < date) guess += 15 * 60_000;
  return new Date(guess);
}

/** The instant `date` ends in `timeZone`: the start of the next date, the cut-off of that date's end of day. */
export const endOfDate = (date: string, timeZone: string): Date => startOfDate(nextDate(date), timeZone);

/** The latest the clock may be moved in one call: three calendar years after `from`. */
export function latestAdvance(from: Date): Date {
  const latest = new Date(from);
  latest.setUTCFullYear(latest.getUTCFullYear() + 3);
  return latest;
}
