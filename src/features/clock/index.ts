/**
 * Each environment's clock and its end of day (docs/adr/0102-environment-clocks-and-end-of-day.md), for the
 * composition root and the features that add end-of-day steps: the clock service (the EnvironmentTime port every
 * time-based rule reads), the end of day's framework and job, their stores, presenters, REST routes and resolvers.
 */
export type { ClockStore, EndOfDayStore } from './ports.js';
export type { ClockAdvance, EnvironmentClockReading } from './clock.js';
export { businessDateOf, endOfDate, previousDate, startOfDate } from './clock.js';
export type { EndOfDayBatch, EndOfDayContext, EndOfDayRun, EndOfDayStep } from './end-of-day.js';
export { endOfDayRequestId } from './end-of-day.js';
export { type ClockSettings, EnvironmentClockService } from './clock.service.js';
export { type EndOfDayPass, EndOfDayService, type EndOfDaySettings } from './end-of-day.service.js';
export { startEndOfDay } from './end-of-day.job.js';
export { PrismaClockStore } from './clock.store.js';
export { PrismaEndOfDayStore } from './end-of-day.store.js';
export { presentClock, presentClockAdvance, presentEndOfDay } from './clock.presenter.js';
export { CLOCK_ROUTES, endOfDayQuery } from './clock.rest.js';
export { clockResolvers } from './clock.resolvers.js';
