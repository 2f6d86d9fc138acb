import { integer, type Settings } from './settings.js';

/** Dormancy and escheatment (docs/dormancy-and-escheatment.md, docs/adr/0109). */
export const dormancyEnv = {
  /** Days without customer-initiated activity after which the end of day marks an open account INACTIVE. */
  INACTIVE_AFTER_DAYS: integer('INACTIVE_AFTER_DAYS', 1, 3650).default(365),
  /** Days without customer-initiated activity after which it marks it DORMANT (more than INACTIVE_AFTER_DAYS). */
  DORMANT_AFTER_DAYS: integer('DORMANT_AFTER_DAYS', 2, 7300).default(730),
  /** The due-diligence window: how many days before its state's escheatment date an account is listed and noticed. */
  ESCHEATMENT_NOTICE_DAYS: integer('ESCHEATMENT_NOTICE_DAYS', 0, 730).default(120),
};

/** What the settings refuse together: DORMANT_AFTER_DAYS must come after INACTIVE_AFTER_DAYS. */
export function dormancyProblems(raw: Settings<typeof dormancyEnv>, problems: string[]): void {
  if (raw.DORMANT_AFTER_DAYS <= raw.INACTIVE_AFTER_DAYS)
    problems.push(
      `DORMANT_AFTER_DAYS (${raw.DORMANT_AFTER_DAYS}) must be more than INACTIVE_AFTER_DAYS (${raw.INACTIVE_AFTER_DAYS}): an account is inactive before it is dormant`,
    );
}

export const dormancyConfig = (raw: Settings<typeof dormancyEnv>) => ({
  dormancy: {
    inactiveAfterDays: raw.INACTIVE_AFTER_DAYS,
    dormantAfterDays: raw.DORMANT_AFTER_DAYS,
    escheatmentNoticeDays: raw.ESCHEATMENT_NOTICE_DAYS,
  },
});
