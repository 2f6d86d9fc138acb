import { integer, type Settings } from './settings.js';

/** Accounts close and reopen (docs/account-lifecycle.md, docs/adr/0106). */
export const lifecycleEnv = {
  /** How many days after its closing (by its environment's clock) an account may be reopened. */
  ACCOUNT_REOPEN_WINDOW_DAYS: integer('ACCOUNT_REOPEN_WINDOW_DAYS', 1, 3650).default(30),
};

export const lifecycleConfig = (raw: Settings<typeof lifecycleEnv>) => ({
  lifecycle: {
    /** How many days after its closing an account may be reopened (ACCOUNT_REOPEN_WINDOW_DAYS). */
    reopenWindowDays: raw.ACCOUNT_REOPEN_WINDOW_DAYS,
  },
});
