import { auditEventFor } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import type { EnvironmentTime } from '../../domain/environment-clock.js';
import { clockAdvanceTooFar, clockCannotGoBack, clockNotAdjustable } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { parseInput } from '../../domain/validation.js';
import { businessDateOf, type ClockAdvance, type EnvironmentClockReading, latestAdvance, nextDate } from './clock.js';
import { clockAdvanceSchema } from './clock.schemas.js';
import type { EndOfDayService } from './end-of-day.service.js';
import type { ClockStore } from './ports.js';

const DAY_MS = 86_400_000;

export interface ClockSettings {
  /** Each configured environment's IANA time zone. */
  timeZones: Readonly<Record<string, string>>;
  /** The environments whose clock may be moved forward. */
  adjustable: readonly string[];
}

/**
 * Each environment's clock (docs/adr/0102): the port every time-based rule reads (EnvironmentTime), its reading for
 * GET /{environment}/clock, and a sandbox's time travel, which closes every business date it passes, in order.
 */
export class EnvironmentClockService implements EnvironmentTime {
  constructor(
    private readonly stores: { clock: ClockStore },
    private readonly settings: ClockSettings,
    private readonly endOfDay: Pick<EndOfDayService, 'runDue'>,
  ) {}

  now(environment: string): Promise<Date> {
    return this.stores.clock.now(environment);
  }

  timeZoneOf(environment: string): string {
    return this.settings.timeZones[environment] ?? 'America/New_York';
  }

  /** `GET /{environment}/clock`: the environment's time, its business date and zone, and whether it may be moved. Needs `accounts:read`. */
  async read(caller: Caller): Promise<EnvironmentClockReading> {
    authorize(caller, 'accounts:read');
    const now = await this.now(caller.environment);
    const timeZone = this.timeZoneOf(caller.environment);
    return {
      environment: caller.environment,
      now,
      businessDate: businessDateOf(now, timeZone),
      timeZone,
      adjustable: this.settings.adjustable.includes(caller.environment),
    };
  }

  /**
   * `POST /{environment}/clock/advance`: moves an adjustable environment's time forward to `to`, or by `days` of
   * 24 hours, audited as `clock.advance`, then runs every end of day that has ended by then, in order, and answers
   * once they have run. Needs `clock:write`; CLOCK_NOT_ADJUSTABLE (409) outside ADJUSTABLE_CLOCK_ENVIRONMENTS,
   * CLOCK_CANNOT_GO_BACK (422) for a `to` not after now, CLOCK_ADVANCE_TOO_FAR (422) beyond three years.
   */
  async advance(caller: Caller, input: unknown): Promise<ClockAdvance> {
    authorize(caller, 'clock:write');
    const valid = parseInput(clockAdvanceSchema, input);
    if (!this.settings.adjustable.includes(caller.environment)) throw clockNotAdjustable();
    const now = await this.now(caller.environment);
    const to = valid.to !== undefined ? new Date(valid.to) : new Date(now.getTime() + valid.days! * DAY_MS);
    if (to.getTime() <= now.getTime()) throw clockCannotGoBack();
    if (to.getTime() > latestAdvance(now).getTime()) throw clockAdvanceTooFar();
    const audit = auditEventFor(caller, {
      operation: 'clock.advance',
      resourceType: 'environment_clock',
      resourceId: newId(),
      changedFields: ['now'],
    });
    const moved = await this.stores.clock.advance(caller.environment, to, audit);
    // Another advance moved it past `to` meanwhile: time never moves back.
    if (moved.outcome === 'not-forward') throw clockCannotGoBack();
    const timeZone = this.timeZoneOf(caller.environment);
    // The dates this advance ended: from the one it began in to the one before the one it reached.
    // `from` is the time the advance was computed from (`to` is `days` after it), the moment the service read the
    // clock; the store's move comes a moment later, and the store's `from` is only for telling a concurrent move.
    const firstEnded = businessDateOf(now, timeZone);
    const reached = businessDateOf(to, timeZone);
    const pass = await this.endOfDay.runDue(caller.environment, { since: firstEnded, waitForOthers: true });
    const closedThrough = pass.completedThrough ?? '';
    return {
      from: now,
      to,
      businessDaysRun: daysEnded(firstEnded, reached).filter((date) => date <= closedThrough).length,
    };
  }
}

/** The business dates from `first` up to the one before `reached`, in order. */
function daysEnded(first: string, reached: string): string[] {
  const dates: string[] = [];
  for (let date = first; date < reached; date = nextDate(date)) dates.push(date);
  return dates;
}
