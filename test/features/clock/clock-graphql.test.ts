import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { startTestService, type TestService } from '../../support/service.js';

const DAY_MS = 86_400_000;

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ END_OF_DAY_INTERVAL_MS: '3600000' });
});
afterAll(() => service?.stop());

describe('the clock over GraphQL', () => {
  it('clock, advanceClock and endOfDay answer what REST answers', async () => {
    const read = await graphql(service, '{ clock { now businessDate timeZone adjustable } }');
    expect(read.json.errors).toBeUndefined();
    const clock = read.json.data.clock;
    expect(clock).toMatchObject({ timeZone: 'America/New_York', adjustable: true });
    const rest = await service.call('GET', '/sandbox/clock');
    expect(rest.json.data.businessDate).toBe(clock.businessDate);

    const moved = await graphql(service, 'mutation { advanceClock(days: 2) { from to businessDaysRun } }');
    expect(moved.json.errors).toBeUndefined();
    const { from, to, businessDaysRun } = moved.json.data.advanceClock;
    expect(new Date(to).getTime() - new Date(from).getTime()).toBe(2 * DAY_MS);
    expect(businessDaysRun).toBe(2);

    const days = await graphql(
      service,
      'query($from: String) { endOfDay(from: $from) { businessDate status steps { step status records error } } }',
      { from: clock.businessDate },
    );
    expect(days.json.errors).toBeUndefined();
    expect(days.json.data.endOfDay).toHaveLength(2);
    expect(days.json.data.endOfDay[0]).toMatchObject({
      businessDate: clock.businessDate,
      status: 'COMPLETED',
      steps: [
        { step: 'hold-expiry', status: 'COMPLETED', records: 0, error: null },
        { step: 'flag-expiry', status: 'COMPLETED', records: 0, error: null },
        { step: 'interest-accrual', status: 'COMPLETED', records: 0, error: null },
        { step: 'interest-posting', status: 'COMPLETED', records: 0, error: null },
        { step: 'maintenance-fee', status: 'COMPLETED', records: 0, error: null },
        { step: 'dormancy', status: 'COMPLETED', records: 0, error: null },
        { step: 'escheatment-notice', status: 'COMPLETED', records: 0, error: null },
      ],
    });
  });

  it('refuses with the same codes: not adjustable, back in time, too far', async () => {
    const other = await graphql(service, 'mutation { advanceClock(days: 1) { to } }', undefined, {
      environment: 'production-like',
    });
    expect(errorCodes(other)).toEqual(['CLOCK_NOT_ADJUSTABLE']);
    const back = await graphql(service, 'mutation($to: String) { advanceClock(to: $to) { to } }', {
      to: '2020-01-01T00:00:00Z',
    });
    expect(errorCodes(back)).toEqual(['CLOCK_CANNOT_GO_BACK']);
    const far = await graphql(service, 'mutation($to: String) { advanceClock(to: $to) { to } }', {
      to: '9000-01-01T00:00:00Z',
    });
    expect(errorCodes(far)).toEqual(['CLOCK_ADVANCE_TOO_FAR']);
    expect(errorCodes(await graphql(service, 'mutation { advanceClock { to } }'))).toEqual(['VALIDATION_FAILED']);
  });
});
