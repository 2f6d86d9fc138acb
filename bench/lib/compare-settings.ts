import { bootstrapUnpairedRatioInterval } from './interval.js';
import { median } from './measure.js';

/**
 * The service under different settings (Node flags, --service-env), measured in separate `npm run bench`
 * invocations alternated in time. Absolute CPU moves between invocations on these machines, so each cycle is
 * read against the comparator it ran beside (the scenario's first judged one, the same in every invocation): the
 * unit is the cycle's service CPU ÷ comparator CPU. Per setting, the cycles of all its invocations are pooled;
 * each setting is set against the baseline as the ratio of those medians, with a 95 % bootstrap interval (the
 * cycles of two settings were not paired). A scenario without a comparator (mixed) shows the service's CPU
 * alone. Peak RSS: each invocation's highest.
 */

interface Run {
  serverCpuUsPerRequest: number | null;
  peakRssMb: number | null;
}
export interface SettingResult {
  options: { serviceEnv: Record<string, string> };
  serviceNodeFlags?: string[];
  scenarios: { scenario: string; contenders: { name: string; runs: Run[] }[]; ratios: { comparator: string }[] }[];
}

/** What tells one invocation's service apart: its Node flags and extra environment. */
export const settingLabel = (result: SettingResult): string =>
  [
    ...(result.serviceNodeFlags ?? []),
    ...Object.entries(result.options.serviceEnv).map(([key, value]) => `${key}=${value}`),
  ].join(' ') || '(defaults)';

/** The comparison as Markdown; `baseline` picks the first setting whose label contains it (default: the first in order). */
export function compareSettings(results: SettingResult[], baselineSubstring?: string): string {
  const cycles = new Map<string, Map<string, number[]>>();
  const comparatorOf = new Map<string, string>();
  const peaks = new Map<string, number[]>();
  for (const result of results) {
    const label = settingLabel(result);
    for (const scenario of result.scenarios) {
      const runsOf = new Map(scenario.contenders.map((contender) => [contender.name, contender.runs]));
      const service = runsOf.get('service');
      if (!service) continue;
      const comparator = scenario.ratios[0]?.comparator;
      const floor = comparator ? runsOf.get(comparator) : undefined;
      comparatorOf.set(scenario.scenario, floor ? comparator! : '');
      const units = service.flatMap((run, i) => {
        const below = floor?.[i]?.serverCpuUsPerRequest;
        if (run.serverCpuUsPerRequest === null) return [];
        if (!floor) return [run.serverCpuUsPerRequest];
        return below ? [run.serverCpuUsPerRequest / below] : [];
      });
      const bySetting = cycles.get(scenario.scenario) ?? new Map<string, number[]>();
      bySetting.set(label, [...(bySetting.get(label) ?? []), ...units]);
      cycles.set(scenario.scenario, bySetting);
      peaks.set(label, [...(peaks.get(label) ?? []), Math.max(...service.map((run) => run.peakRssMb ?? 0))]);
    }
  }

  const labels = [...peaks.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const baseline =
    baselineSubstring === undefined ? labels[0] : labels.find((label) => label.includes(baselineSubstring));
  if (!baseline) throw new Error(`no setting matches --baseline ${baselineSubstring}; settings: ${labels.join('; ')}`);
  const fixed = (value: number, digits = 2) => value.toFixed(digits);

  const lines = [
    `Baseline: \`${baseline}\`.`,
    '',
    '| scenario | setting | cycles | service CPU ÷ comparator CPU (median) | ÷ baseline (95 % interval) |',
    '|---|---|--:|--:|---|',
  ];
  for (const [scenario, bySetting] of cycles) {
    const comparator = comparatorOf.get(scenario);
    const base = bySetting.get(baseline);
    for (const label of labels) {
      const units = bySetting.get(label);
      if (!units || units.length === 0) continue;
      const unit = comparator ? fixed(median(units)) : `${Math.round(median(units))} µs (no comparator)`;
      let versus = '—';
      if (label !== baseline && base && base.length > 0) {
        const interval = bootstrapUnpairedRatioInterval(units, base);
        versus = `${fixed(median(units) / median(base))}${interval ? ` (${fixed(interval[0])}–${fixed(interval[1])})` : ''}`;
      }
      lines.push(
        `| ${scenario}${comparator ? ` (÷ ${comparator})` : ''} | \`${label}\` | ${units.length} | ${unit} | ${versus} |`,
      );
    }
  }
  lines.push('', '| setting | peak RSS per invocation and scenario, MB |', '|---|---|');
  for (const label of labels)
    lines.push(
      `| \`${label}\` | ${peaks
        .get(label)!
        .map((mb) => Math.round(mb))
        .join(', ')} |`,
    );
  return `${lines.join('\n')}\n`;
}
