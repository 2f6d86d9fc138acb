import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { memberAddress } from './patroni.js';

const run = promisify(execFile);

/**
 * A network partition of one Patroni member on one machine. Every member's ports are on its own address
 * (127.0.0.1x), but on loopback a connection a member opens leaves from 127.0.0.1, so addresses alone
 * cannot say which side a connection is on. Its owner can: member i's processes (etcd, Patroni and the
 * PostgreSQL it starts) run with their own group id, and a connection is marked when it opens (conntrack)
 * if it crosses member i's border: opened by member i to another address, or by anyone else to member i's.
 * A partition drops every packet of the connections so marked, the open ones and the new ones, both ways;
 * what member i does with itself (Patroni to its own PostgreSQL, a Unix socket) goes on. A partial partition
 * cuts only the connections between member i and the other members (etcd's peers, replication, Patroni's
 * REST calls to each other), marked with a second bit: HAProxy, the service and a client still reach it,
 * as when a primary's link to its standbys' site fails but not its link to the applications. The rules live
 * in chains of their own (CAS_PATRONI_MARK in mangle, CAS_PATRONI_CUT in filter), removed at the end.
 */

const MARK_CHAIN = 'CAS_PATRONI_MARK';
const CUT_CHAIN = 'CAS_PATRONI_CUT';
/** Group ids no account uses (checked): one per member. */
const GROUP_BASE = 47_100;
const bit = (index: number) => `0x${(0x100000 << index).toString(16)}`;
/** The mark of a connection between member `index` and another member. */
const peerBit = (index: number) => `0x${(0x1000000 << index).toString(16)}`;

/** What a partition cuts member `index` off from: everything else, or only the other members. */
export type PartitionScope = 'all' | 'peers';

export interface PartitionMarks {
  groupOf(index: number): number;
  /** Cuts member `index` off from everything else, or (`peers`) from the other members only. */
  partition(index: number, scope?: PartitionScope): Promise<void>;
  heal(index: number, scope?: PartitionScope): Promise<void>;
  /** Removes the chains (also when a run failed). */
  remove(): Promise<void>;
}

async function iptables(...args: string[]): Promise<void> {
  await run('iptables', ['-w', ...args]);
}

async function removeChains(): Promise<void> {
  for (const [table, chain, hook] of [
    ['mangle', MARK_CHAIN, 'OUTPUT'],
    ['filter', CUT_CHAIN, 'OUTPUT'],
  ] as const) {
    await iptables('-t', table, '-D', hook, '-j', chain).catch(() => undefined);
    await iptables('-t', table, '-F', chain).catch(() => undefined);
    await iptables('-t', table, '-X', chain).catch(() => undefined);
  }
}

/** Installs the marking rules for `members` (1-based indexes); iptables is installed from Debian when missing. */
export async function installPartitionMarks(members: number[]): Promise<PartitionMarks> {
  if (!existsSync('/usr/sbin/iptables')) {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'iptables'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  const groupOf = (index: number) => GROUP_BASE + index;
  await removeChains();
  await iptables('-t', 'mangle', '-N', MARK_CHAIN);
  await iptables('-t', 'filter', '-N', CUT_CHAIN);
  for (const index of members) {
    const address = `${memberAddress(index)}/32`;
    const gid = String(groupOf(index));
    const mark = ['-j', 'CONNMARK', '--or-mark', bit(index)];
    const opening = ['-m', 'conntrack', '--ctstate', 'NEW'];
    // Opened by member i to any other address; opened by anyone else to member i's address.
    await iptables(
      '-t',
      'mangle',
      '-A',
      MARK_CHAIN,
      ...opening,
      '-m',
      'owner',
      '--gid-owner',
      gid,
      '!',
      '-d',
      address,
      ...mark,
    );
    await iptables(
      '-t',
      'mangle',
      '-A',
      MARK_CHAIN,
      ...opening,
      '-m',
      'owner',
      '!',
      '--gid-owner',
      gid,
      '-d',
      address,
      ...mark,
    );
  }
  // Between member i and member j, whichever opened it: member i's processes to j's address, j's to i's.
  for (const index of members)
    for (const other of members.filter((member) => member !== index))
      for (const [owner, to] of [
        [index, other],
        [other, index],
      ] as const)
        await iptables(
          '-t',
          'mangle',
          '-A',
          MARK_CHAIN,
          '-m',
          'conntrack',
          '--ctstate',
          'NEW',
          '-m',
          'owner',
          '--gid-owner',
          String(groupOf(owner)),
          '-d',
          `${memberAddress(to)}/32`,
          '-j',
          'CONNMARK',
          '--or-mark',
          peerBit(index),
        );
  await iptables('-t', 'mangle', '-I', 'OUTPUT', '-j', MARK_CHAIN);
  await iptables('-t', 'filter', '-I', 'OUTPUT', '-j', CUT_CHAIN);
  const cut = (index: number, scope: PartitionScope) => {
    const mark = scope === 'all' ? bit(index) : peerBit(index);
    return ['-m', 'connmark', '--mark', `${mark}/${mark}`, '-j', 'DROP'];
  };
  return {
    groupOf,
    partition: (index, scope = 'all') => iptables('-t', 'filter', '-A', CUT_CHAIN, ...cut(index, scope)),
    heal: (index, scope = 'all') => iptables('-t', 'filter', '-D', CUT_CHAIN, ...cut(index, scope)),
    remove: removeChains,
  };
}
