import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full collection before it collects
 * again. Left to itself V8 picks up to 4× on a machine with gigabytes free: measured under the benchmark's
 * scenarios in one process, the old space reached 131 MB for about 50 MB alive, and the process's RSS 335 MB
 * (issue 13's ceiling: 250 MB under the mixed load). 50 % (1.5×) kept the old space under 55 MB and RSS at
 * 241 MB for the same run; docs/performance.md ("Memory") has the measurements and the CPU it costs.
 *
 * A growth factor, not a cap: a process that truly needs more memory still gets it (no out-of-memory crash
 * where `--max-old-space-size` would cause one). V8 reads the factor at each collection, so setting it
 * from the process itself takes effect; `node --heap-growing-percent=N` on the command line wins.
 */
export type HeapGrowth =
  { source: 'HEAP_GROWING_PERCENT'; percent: number } | { source: 'command line' | 'V8 default' };

export function applyHeapGrowingPercent(percent: number, execArgv: readonly string[] = process.execArgv): HeapGrowth {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return { source: 'command line' };
  if (percent === 0) return { source: 'V8 default' };
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  return { source: 'HEAP_GROWING_PERCENT', percent };
}
