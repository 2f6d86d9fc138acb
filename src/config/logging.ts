import { z } from 'zod';
import { booleanFlag, type Settings } from './settings.js';

/** The log (pino): its level, and pretty lines for a human in development. */
export const loggingEnv = {
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  LOG_PRETTY: booleanFlag('LOG_PRETTY').optional(),
};

export const loggingConfig = (raw: Settings<typeof loggingEnv>, nodeEnv: string) => ({
  logLevel: raw.LOG_LEVEL,
  logPretty: raw.LOG_PRETTY ?? nodeEnv === 'development',
});
