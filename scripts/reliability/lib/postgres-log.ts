import { existsSync, readFileSync } from 'node:fs';

/**
 * PostgreSQL's own account of its background work (checkpoints, autovacuum, autoanalyze), so that a
 * latency spike in a load run can be set beside what the database was doing at that second.
 */

/** Settings that make PostgreSQL log those events, with millisecond UTC timestamps, to its standard error. */
export function backgroundWorkLogSettings(): Record<string, string> {
  return {
    log_line_prefix: '%m ',
    log_timezone: 'UTC',
    log_checkpoints: 'on',
    log_autovacuum_min_duration: '0',
  };
}

export interface BackgroundEvent {
  /** Wall-clock milliseconds. */
  from: number;
  to: number;
  what: string;
}

const LINE = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}) (\S+) +\S+: +(.*)$/;

/**
 * Checkpoints as two events, the spread-out writes and the closing sync (when every file written since
 * the last checkpoint is fsynced at once); autovacuum and autoanalyze runs from start to end (PostgreSQL
 * logs them when they end, with their elapsed time on a continuation line).
 */
export function readBackgroundEvents(logFile: string): BackgroundEvent[] {
  if (!existsSync(logFile)) return [];
  const lines = readFileSync(logFile, 'utf8').split('\n');
  const events: BackgroundEvent[] = [];
  let checkpointStart: number | undefined;
  lines.forEach((line, index) => {
    const match = LINE.exec(line);
    if (!match) return;
    const at = Date.parse(`${match[1]!.replace(' ', 'T')}Z`);
    const message = match[3]!;
    if (message.startsWith('checkpoint starting')) checkpointStart = at;
    else if (message.startsWith('checkpoint complete')) {
      const sync = Math.round(Number(/sync=([\d.]+) s/.exec(message)?.[1] ?? 0) * 1000);
      const written = /wrote (\d+) buffers/.exec(message)?.[1];
      if (checkpointStart !== undefined)
        events.push({ from: checkpointStart, to: at - sync, what: `checkpoint writes (${written} buffers)` });
      events.push({ from: at - sync, to: at, what: `checkpoint sync (${Math.round(sync)} ms)` });
      checkpointStart = undefined;
    } else {
      const run = /^automatic (?:aggressive )?(vacuum|analyze)\b.*?of table "([^"]+)"/.exec(message);
      if (!run) return;
      // The entry's continuation lines (no timestamp) end with "system usage: … elapsed: N s".
      let elapsed = 0;
      for (let next = index + 1; next < lines.length && !LINE.test(lines[next]!); next++) {
        const seconds = /elapsed: ([\d.]+) s/.exec(lines[next]!)?.[1];
        if (seconds) elapsed = Math.round(Number(seconds) * 1000);
      }
      events.push({
        from: at - elapsed,
        to: at,
        what: `auto${run[1]} ${run[2]!.split('.').at(-1)} (${Math.round(elapsed)} ms)`,
      });
    }
  });
  return events;
}

/** The events that overlap [from, to]. */
export function eventsDuring(events: readonly BackgroundEvent[], from: number, to: number): string[] {
  return events.filter((event) => event.from <= to && event.to >= from).map((event) => event.what);
}
