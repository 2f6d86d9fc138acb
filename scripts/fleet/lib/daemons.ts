import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A long-running child (Redis, HAProxy) whose output goes to a log file, stopped with SIGTERM. */
export interface Daemon {
  name: string;
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export async function startDaemon(
  name: string,
  command: string,
  args: string[],
  options: { logDir: string; env?: Record<string, string>; readyPort: number },
): Promise<Daemon> {
  const logFile = path.join(options.logDir, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(command, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => (running.delete(child), resolve())));
  const deadline = performance.now() + 15_000;
  while (!(await listening(options.readyPort))) {
    if (child.exitCode !== null)
      throw new Error(
        `${name} exited during startup (${child.exitCode}); log ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`,
      );
    if (performance.now() > deadline)
      throw new Error(`${name} did not listen on ${options.readyPort} within 15 s; log ${logFile}`);
    await sleep(50);
  }
  return {
    name,
    pid: child.pid!,
    logFile,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
      await exited;
    },
  };
}

export function listening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Redis as the fleet's shared store of rate limits: no persistence (a limit lost on restart is harmless). */
export function startRedis(port: number, logDir: string): Promise<Daemon> {
  return startDaemon(
    'redis',
    '/usr/bin/redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { logDir, readyPort: port },
  );
}

export const HAPROXY_CONFIG = path.resolve(import.meta.dirname, '../../../deploy/haproxy.cfg');
const PATRONI_HAPROXY = path.resolve(import.meta.dirname, '../../../deploy/patroni/haproxy-postgres.cfg');

/**
 * deploy/haproxy.cfg for `instances` instances (one `server` line each) and, with `patroniMembers`, with
 * deploy/patroni/haproxy-postgres.cfg (one `server` line per member) in place of its `listen postgres`.
 */
export function fleetHaproxyConfig(instances: number, patroniMembers?: number): string {
  let template = readFileSync(HAPROXY_CONFIG, 'utf8');
  if (patroniMembers !== undefined) {
    const section = readFileSync(PATRONI_HAPROXY, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*server pg\d+ /.test(line) || Number(/pg(\d+)/.exec(line)![1]) <= patroniMembers)
      .join('\n');
    template = template.replace(/^listen postgres\n(?:[ \t]+.*\n|\n(?=[ \t]))*/m, `${section}\n`);
  }
  const serverLine = /^\s*server cas1 .*$/m.exec(template)![0];
  const servers = Array.from({ length: instances }, (_, i) =>
    serverLine
      .replaceAll('cas1', `cas${i + 1}`)
      .replaceAll('_1', `_${i + 1}`)
      .replaceAll('app-1', `app-${i + 1}`),
  ).join('\n');
  return template.replace(/(^\s*server cas\d+ .*\n)+/m, `${servers}\n`);
}

/**
 * HAProxy on deploy/haproxy.cfg (compose.yaml's too), its addresses from the environment. For other than
 * three instances, a copy with one `server` line per instance is written beside the logs; the file's other
 * lines are used as they are.
 */
export async function startHaproxy(options: {
  port: number;
  statsPort: number;
  postgresPort: number;
  primary: string;
  replica: string;
  instances: string[];
  workDir: string;
  /**
   * PostgreSQL managed by Patroni: deploy/patroni/haproxy-postgres.cfg replaces the file's `listen postgres`,
   * one `server` line per member (its PostgreSQL address and its Patroni REST port), and a replica listen.
   */
  patroni?: { replicaPort: number; members: { postgres: string; apiPort: number }[] };
}): Promise<Daemon & { statsSocket: string; configFile: string }> {
  const composed = options.instances.length !== 3 || options.patroni !== undefined;
  const configFile = composed ? path.join(options.workDir, 'haproxy.cfg') : HAPROXY_CONFIG;
  if (composed)
    writeFileSync(configFile, fleetHaproxyConfig(options.instances.length, options.patroni?.members.length));
  const statsSocket = path.join(options.workDir, 'haproxy.sock');
  const env = {
    CAS_LISTEN: `127.0.0.1:${options.port}`,
    CAS_HAPROXY_STATS: `127.0.0.1:${options.statsPort}`,
    CAS_HAPROXY_SOCKET: statsSocket,
    // Quicker than the file's default: one machine, and the drain (SHUTDOWN_DRAIN_MS) sized to match.
    CAS_CHECK_INTERVAL: '500ms',
    CAS_POSTGRES_LISTEN: `127.0.0.1:${options.postgresPort}`,
    CAS_POSTGRES_PRIMARY: options.primary,
    CAS_POSTGRES_REPLICA: options.replica,
    ...Object.fromEntries(options.instances.map((address, i) => [`CAS_BACKEND_${i + 1}`, address])),
    ...(options.patroni && {
      CAS_POSTGRES_REPLICA_LISTEN: `127.0.0.1:${options.patroni.replicaPort}`,
      ...Object.fromEntries(
        options.patroni.members.flatMap((member, i) => [
          [`CAS_PG_${i + 1}`, member.postgres],
          [`CAS_PATRONI_${i + 1}`, String(member.apiPort)],
        ]),
      ),
    }),
  };
  const daemon = await startDaemon('haproxy', '/usr/sbin/haproxy', ['-W', '-db', '-f', configFile], {
    logDir: options.workDir,
    env,
    readyPort: options.postgresPort,
  });
  return { ...daemon, statsSocket, configFile };
}

/** A command on HAProxy's runtime API (the stats socket), e.g. `show servers state`. */
export function haproxyCommand(statsSocket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(statsSocket);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.once('error', reject);
    socket.once('end', () => resolve(answer));
    socket.write(`${command}\n`);
  });
}

/** Each server's operational state as HAProxy sees it: 2 is UP, 0 is DOWN (`show servers state`). */
export async function serverStates(
  statsSocket: string,
  backend = 'cas',
): Promise<Record<string, { up: boolean; admin: number }>> {
  const text = await haproxyCommand(statsSocket, `show servers state ${backend}`);
  const states: Record<string, { up: boolean; admin: number }> = {};
  for (const line of text.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 7 || !/^\d+$/.test(fields[0]!)) continue;
    states[fields[3]!] = { up: fields[5] === '2', admin: Number(fields[6]) };
  }
  return states;
}
