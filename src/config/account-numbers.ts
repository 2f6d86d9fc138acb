import { z } from 'zod';
import { abaRoutingNumberValid, DEFAULT_ROUTING_NUMBER } from '../domain/routing-number.js';
import { commaList, type Settings } from './settings.js';

/** `sandbox=011000015,*=021000021` → its pairs; null for an entry that is no `name=digits`. */
const routingPairs = (entries: string[]) => entries.map((entry) => /^([^=\s]+)\s*=\s*(\S+)$/.exec(entry));

/**
 * Each environment's ABA routing number (docs/adr/0107): `ROUTING_NUMBERS=production=021000021,*=011000015`, an
 * entry per environment, `*` for every other one; DEFAULT_ROUTING_NUMBER (011000015, a valid test number) for an
 * environment it does not name. Each must pass the ABA checksum (3-7-1): the service does not start otherwise
 * (problem code ROUTING_NUMBER_INVALID).
 */
export const accountNumbersEnv = {
  ROUTING_NUMBERS: z
    .string()
    .transform(commaList)
    .refine(
      (entries) => routingPairs(entries).every((pair) => pair !== null),
      'ROUTING_NUMBER_INVALID: ROUTING_NUMBERS entries must look like environment=123456789 (or *=123456789 for every other environment)',
    )
    .refine(
      (entries) => routingPairs(entries).every((pair) => pair === null || abaRoutingNumberValid(pair[2]!)),
      'ROUTING_NUMBER_INVALID: every ROUTING_NUMBERS entry must be 9 digits that pass the ABA checksum (3-7-1)',
    )
    .optional(),
};

/**
 * An entry naming an environment that is not in ENVIRONMENTS (a typo would leave that environment on the default
 * routing number, refusing its inbound payments), or one environment twice: ROUTING_NUMBER_INVALID.
 */
export function routingNumberProblems(
  raw: Settings<typeof accountNumbersEnv>,
  environments: readonly string[],
  problems: string[],
): void {
  const names = routingPairs(raw.ROUTING_NUMBERS ?? []).flatMap((pair) => (pair ? [pair[1]!] : []));
  const unknown = names.filter((name) => name !== '*' && !environments.includes(name));
  if (unknown.length > 0)
    problems.push(
      `ROUTING_NUMBER_INVALID: ROUTING_NUMBERS names environments that are not in ENVIRONMENTS: ${unknown.join(', ')}`,
    );
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length > 0)
    problems.push(`ROUTING_NUMBER_INVALID: ROUTING_NUMBERS names an environment more than once: ${twice.join(', ')}`);
}

export const accountNumbersConfig = (raw: Settings<typeof accountNumbersEnv>, environments: readonly string[]) => {
  const numbers = new Map(
    routingPairs(raw.ROUTING_NUMBERS ?? []).flatMap((pair) => (pair ? [[pair[1]!, pair[2]!] as const] : [])),
  );
  const fallback = numbers.get('*') ?? DEFAULT_ROUTING_NUMBER;
  return {
    accountNumbers: {
      /** Each configured environment's ABA routing number (ROUTING_NUMBERS; 011000015 by default). */
      routingNumbers: Object.fromEntries(environments.map((name) => [name, numbers.get(name) ?? fallback])) as Record<
        string,
        string
      >,
    },
  };
};
