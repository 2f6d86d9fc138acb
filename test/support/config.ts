import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../../src/config/config.js';

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

/** The variables the configuration schema reads: the keys of `envSchema` in src/config/config.ts. */
export function configuredVariables(): string[] {
  const source = readFileSync('src/config/config.ts', 'utf8');
  const schema = source.slice(source.indexOf('const envSchema = z.object({'), source.indexOf('\n});', source.indexOf('const envSchema')));
  return [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!);
}
