import { CONFIGURATION_VARIABLES, ConfigError, loadConfig } from '../../src/config/config.js';

/** The problems loadConfig reports for `env` (every one, as startup prints them); [] when it accepts it. */
export function configProblems(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

/** The variables the configuration schema reads: the keys of its composed schema (src/config/config.ts). */
export function configuredVariables(): string[] {
  return [...CONFIGURATION_VARIABLES];
}
