import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ledgerViolations } from '../../../test/support/ledger-invariants.js';
import { pick } from './concurrency.js';
import { envelopeProblems } from './envelope.js';
import { buildAccountInput, buildCustomerInput } from '../../../test/support/factories.js';

/**
 * The bank workload (issue 15, "Correctness under concurrency and faults"), shared by the suite's
 * scripts/reliability/test/bank.test.ts and the fault script scripts/reliability/bank.ts: clients move money at
 * random among a few accounts (transfers, deposits, withdrawals, holds posted for less or voided, reversals),
 * every write with an Idempotency-Key of its own, on purpose on the same rows. A client-side model applies
 * every acknowledged answer; the checks below compare it with the tables.
 *
 * Amounts are whole cents on the client side (exact), sent as JSON numbers with at most 2 decimals.
 */

export const ENVIRONMENT = 'sandbox';

export type EntryType = 'CREDIT' | 'DEBIT';

export type BankOp =
  | { kind: 'deposit' | 'withdrawal'; key: string; account: string; cents: number }
  | { kind: 'hold'; key: string; account: string; type: EntryType; cents: number }
  | { kind: 'transfer'; key: string; from: string; to: string; cents: number }
  | { kind: 'post'; key: string; account: string; transactionId: string; cents: number | null }
  | { kind: 'void'; key: string; account: string; transactionId: string }
  | { kind: 'reverse'; key: string; account: string; transactionId: string };

export type BankOpKind = BankOp['kind'];

/** One answer as the workload needs it, whatever the surface (REST now, GraphQL when it has ledger mutations). */
export interface BankAnswer {
  /** HTTP status; 0 when no answer came (connection refused or reset). */
  status: number;
  /** `ack`: 2xx. `refused`: a definite refusal (4xx). `retry`: no definite answer yet (no answer, 503, key in progress). `broken`: a 5xx other than 503. */
  outcome: 'ack' | 'refused' | 'retry' | 'broken';
  code?: string;
  replayed: boolean;
  /** The customer-side transaction ids answered: one, or a transfer's debit and credit. */
  ids: string[];
  /** The transaction answered (the debit for a transfer), as the surface shows it. */
  transaction?: AnsweredTransaction;
  elapsedMs: number;
  /** Anything malformed about the answer (envelope, missing fields). */
  problems: string[];
  detail: string;
}

export interface AnsweredTransaction {
  transactionId: string;
  accountId: string;
  type: EntryType;
  cents: number;
  status: string;
  reversesTransactionId: string | null;
}

/** A surface performs one operation once; REST below, GraphQL where ledger mutations exist. */
export type BankSurface = (op: BankOp) => Promise<BankAnswer>;

/** The REST request of an operation: method, path, body; its key goes in Idempotency-Key. */
export function restRequest(op: BankOp): { method: string; path: string; body: unknown } {
  const account = (id: string) => `/${ENVIRONMENT}/account/${id}`;
  const amount = (cents: number) => cents / 100;
  switch (op.kind) {
    case 'deposit':
    case 'withdrawal':
      return {
        method: 'POST',
        path: `${account(op.account)}/transaction`,
        body: {
          type: op.kind === 'deposit' ? 'CREDIT' : 'DEBIT',
          amount: amount(op.cents),
          description: `${op.kind} ${op.key.slice(0, 8)}`,
        },
      };
    case 'hold':
      return {
        method: 'POST',
        path: `${account(op.account)}/transaction`,
        body: { type: op.type, amount: amount(op.cents), hold: true },
      };
    case 'transfer':
      return {
        method: 'POST',
        path: `/${ENVIRONMENT}/transfer`,
        body: { fromAccountId: op.from, toAccountId: op.to, amount: amount(op.cents) },
      };
    case 'post':
      return {
        method: 'POST',
        path: `${account(op.account)}/transaction/${op.transactionId}/post`,
        body: op.cents === null ? {} : { amount: amount(op.cents) },
      };
    case 'void':
      return { method: 'POST', path: `${account(op.account)}/transaction/${op.transactionId}/void`, body: {} };
    case 'reverse':
      return { method: 'POST', path: `${account(op.account)}/transaction/${op.transactionId}/reverse`, body: {} };
  }
}

/** One HTTP answer as a REST surface needs it. */
export interface RawRestAnswer {
  status: number;
  json: unknown;
  text: string;
  header(name: string): string | undefined;
  elapsedMs: number;
  error?: string;
}

/** The REST surface over any HTTP client: each operation with its key in Idempotency-Key, its envelope checked. */
export function restSurface(
  send: (method: string, path: string, body: unknown, headers: Record<string, string>) => Promise<RawRestAnswer>,
): BankSurface {
  return async (op) => {
    const { method, path, body } = restRequest(op);
    const res = await send(method, path, body, { 'idempotency-key': op.key });
    const envelope =
      res.status === 0
        ? []
        : envelopeProblems({ status: res.status, header: res.header, text: res.text, json: res.json }, path);
    return restAnswer(op, res.status, res.json, res.header('idempotent-replayed'), res.elapsedMs, envelope, res.error);
  };
}

/** What a successful answer's status must be. */
export const ACK_STATUS: Record<BankOpKind, number> = {
  deposit: 201,
  withdrawal: 201,
  hold: 201,
  transfer: 201,
  post: 200,
  void: 200,
  reverse: 201,
};

export const toCentsFromNumber = (amount: number): number => Math.round(amount * 100);

/** Exact cents of PostgreSQL NUMERIC text ("-12.340000"); throws on a fraction finer than a cent. */
export function toCentsFromText(text: string): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const fraction = (match[3] ?? '').padEnd(2, '0');
  if (/[1-9]/.test(fraction.slice(2))) throw new Error(`finer than a cent: ${text}`);
  const cents = Number(match[2]) * 100 + Number(fraction.slice(0, 2));
  return match[1] === '-' ? -cents : cents;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function transactionOf(data: any): AnsweredTransaction | undefined {
  if (typeof data?.transactionId !== 'string') return undefined;
  return {
    transactionId: data.transactionId,
    accountId: data.accountId,
    type: data.type,
    cents: toCentsFromNumber(Number(data.amount)),
    status: data.status,
    reversesTransactionId: data.reversesTransactionId ?? null,
  };
}

/**
 * A REST answer as a BankAnswer. `json` is the parsed envelope, `replayedHeader` the Idempotent-Replayed
 * header, `envelope` what is wrong with the envelope (scripts/reliability/lib/envelope.ts).
 */
export function restAnswer(
  op: BankOp,
  status: number,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any,
  replayedHeader: string | undefined,
  elapsedMs: number,
  envelope: string[],
  error?: string,
): BankAnswer {
  const code: string | undefined = json?.error?.code;
  const base = {
    status,
    replayed: replayedHeader === 'true',
    ids: [] as string[],
    elapsedMs,
    problems: [...envelope],
    ...(code !== undefined && { code }),
  };
  if (status === 0) return { ...base, outcome: 'retry', detail: `no answer (${error ?? 'unknown'})` };
  if (status === 503 || (status === 409 && code === 'IDEMPOTENCY_KEY_IN_PROGRESS'))
    return { ...base, outcome: 'retry', detail: `${status} ${code ?? ''}` };
  if (status >= 500)
    return {
      ...base,
      outcome: 'broken',
      detail: `${status} ${code ?? ''} ${JSON.stringify(json?.error ?? null).slice(0, 300)}`,
    };
  if (status < 200 || status >= 300) return { ...base, outcome: 'refused', detail: `${status} ${code ?? ''}` };
  if (status !== ACK_STATUS[op.kind])
    base.problems.push(`${op.kind} answered ${status}, expected ${ACK_STATUS[op.kind]}`);
  const data = json?.data;
  if (op.kind === 'transfer') {
    const debit = transactionOf(data?.debit);
    const credit = transactionOf(data?.credit);
    if (!debit || !credit)
      return {
        ...base,
        outcome: 'ack',
        problems: [...base.problems, 'a transfer answered without debit and credit'],
        detail: `${status}`,
      };
    return {
      ...base,
      outcome: 'ack',
      ids: [debit.transactionId, credit.transactionId],
      transaction: debit,
      detail: `${status}`,
    };
  }
  const transaction = transactionOf(data);
  if (!transaction)
    return {
      ...base,
      outcome: 'ack',
      problems: [...base.problems, `${op.kind} answered without a transaction`],
      detail: `${status}`,
    };
  return { ...base, outcome: 'ack', ids: [transaction.transactionId], transaction, detail: `${status}` };
}

/** The refusals each operation may meet in this workload (no flags, one currency, no expiry); any other is a problem. */
const ALLOWED_REFUSALS: Record<BankOpKind, readonly string[]> = {
  deposit: [],
  withdrawal: ['INSUFFICIENT_FUNDS'],
  hold: ['INSUFFICIENT_FUNDS'],
  transfer: ['INSUFFICIENT_FUNDS'],
  post: ['TRANSACTION_NOT_PENDING'],
  void: ['TRANSACTION_NOT_PENDING'],
  reverse: ['TRANSACTION_ALREADY_REVERSED', 'REVERSAL_NOT_REVERSIBLE', 'INSUFFICIENT_FUNDS'],
};

interface Leg {
  /** Null for a reversal's leg on the other account of a transfer: the API answers only the addressed side. */
  id: string | null;
  account: string;
  type: EntryType;
}

export interface Posting {
  key: string;
  kind: BankOpKind;
  legs: Leg[];
  status: 'PENDING' | 'POSTED' | 'VOIDED';
  authorizedCents: number;
  /** What moved once POSTED. */
  postedCents: number | null;
  hold: boolean;
  reverses?: Posting;
  reversedBy?: Posting;
}

const opposite = (type: EntryType): EntryType => (type === 'CREDIT' ? 'DEBIT' : 'CREDIT');

/** Everything the clients were told, and what it implies. */
export class BankModel {
  readonly postings: Posting[] = [];
  /** Customer-side transaction id → its posting. */
  readonly byTransaction = new Map<string, Posting>();
  /** Holds acknowledged and not (yet known to be) settled: any client may settle one. */
  readonly pendingHolds: Posting[] = [];
  /** Posted transaction ids a client may try to reverse (reversals included: they must be refused). */
  readonly reversible: string[] = [];
  readonly acknowledged = new Map<string, { op: BankOp; ids: string[] }>();
  readonly refused = new Map<string, { op: BankOp; code: string }>();
  readonly problems: string[] = [];
  readonly counts: Record<string, number> = {};
  replaysChecked = 0;

  constructor(readonly accounts: readonly string[]) {}

  private count(name: string): void {
    this.counts[name] = (this.counts[name] ?? 0) + 1;
  }

  problem(text: string): void {
    if (this.problems.length < 200) this.problems.push(text);
  }

  /** Applies the definite answer to `op` (acknowledged or refused). */
  apply(op: BankOp, answer: BankAnswer): void {
    for (const problem of answer.problems) this.problem(`${op.kind} ${op.key}: ${problem}`);
    if (answer.outcome === 'refused') {
      const code = answer.code ?? `HTTP ${answer.status}`;
      this.count(`refused ${op.kind} ${code}`);
      if (!ALLOWED_REFUSALS[op.kind].includes(code))
        this.problem(`${op.kind} ${op.key} refused with ${answer.detail}, not expected in this workload`);
      this.refused.set(op.key, { op, code });
      return;
    }
    if (answer.outcome !== 'ack') {
      this.problem(`${op.kind} ${op.key}: no definite answer applied (${answer.detail})`);
      return;
    }
    this.count(`acknowledged ${op.kind}`);
    if (answer.replayed) this.count('acknowledged as a replay of an earlier attempt');
    if (this.acknowledged.has(op.key)) this.problem(`key ${op.key} acknowledged twice`);
    this.acknowledged.set(op.key, { op, ids: answer.ids });
    const fresh = !answer.replayed;
    const t = answer.transaction;
    const expect = (what: string, ok: boolean) => {
      if (!ok) this.problem(`${op.kind} ${op.key} answered ${JSON.stringify(t)}: ${what}`);
    };
    const newPosting = (legs: Leg[], cents: number, hold: boolean): Posting => {
      for (const leg of legs) {
        if (leg.id !== null && this.byTransaction.has(leg.id))
          this.problem(`transaction ${leg.id} acknowledged for two keys (${op.key})`);
      }
      const posting: Posting = {
        key: op.key,
        kind: op.kind,
        legs,
        status: hold ? 'PENDING' : 'POSTED',
        authorizedCents: cents,
        postedCents: hold ? null : cents,
        hold,
      };
      this.postings.push(posting);
      for (const leg of legs) if (leg.id !== null) this.byTransaction.set(leg.id, posting);
      return posting;
    };
    switch (op.kind) {
      case 'deposit':
      case 'withdrawal': {
        const type = op.kind === 'deposit' ? 'CREDIT' : 'DEBIT';
        expect(
          'the requested posting',
          t?.accountId === op.account && t.type === type && t.cents === op.cents && (!fresh || t.status === 'POSTED'),
        );
        newPosting([{ id: answer.ids[0]!, account: op.account, type }], op.cents, false);
        this.reversible.push(answer.ids[0]!);
        break;
      }
      case 'hold': {
        expect(
          'the requested hold',
          t?.accountId === op.account &&
            t.type === op.type &&
            (!fresh || (t.status === 'PENDING' && t.cents === op.cents)),
        );
        this.pendingHolds.push(
          newPosting([{ id: answer.ids[0]!, account: op.account, type: op.type }], op.cents, true),
        );
        break;
      }
      case 'transfer': {
        expect('the requested debit', t?.accountId === op.from && t.type === 'DEBIT' && t.cents === op.cents);
        newPosting(
          [
            { id: answer.ids[0]!, account: op.from, type: 'DEBIT' },
            { id: answer.ids[1]!, account: op.to, type: 'CREDIT' },
          ],
          op.cents,
          false,
        );
        this.reversible.push(...answer.ids);
        break;
      }
      case 'post':
      case 'void': {
        const hold = this.byTransaction.get(op.transactionId);
        expect('the hold addressed', answer.ids[0] === op.transactionId);
        if (!hold) {
          this.problem(`${op.kind} of unknown hold ${op.transactionId}`);
          break;
        }
        if (hold.status !== 'PENDING')
          this.problem(
            `hold ${op.transactionId} settled twice: ${hold.status}, then ${op.kind} ${op.key} acknowledged`,
          );
        const index = this.pendingHolds.indexOf(hold);
        if (index >= 0) this.pendingHolds.splice(index, 1);
        if (op.kind === 'post') {
          hold.status = 'POSTED';
          hold.postedCents = op.cents ?? hold.authorizedCents;
          expect('the posted hold', t?.status === 'POSTED' && t.cents === hold.postedCents);
          this.reversible.push(op.transactionId);
        } else {
          hold.status = 'VOIDED';
          expect('the voided hold', t?.status === 'VOIDED');
        }
        break;
      }
      case 'reverse': {
        const original = this.byTransaction.get(op.transactionId);
        if (!original || original.status !== 'POSTED') {
          this.problem(
            `reversal ${op.key} acknowledged for ${op.transactionId}, which the clients were never told is posted`,
          );
          break;
        }
        if (original.reverses)
          this.problem(`reversal ${op.key} of ${op.transactionId} acknowledged, but it is itself a reversal`);
        if (original.reversedBy)
          this.problem(`${op.transactionId} reversed twice (${original.reversedBy.key}, ${op.key})`);
        const cents = original.postedCents!;
        expect(
          'the reversal',
          t?.accountId === op.account &&
            t.reversesTransactionId === op.transactionId &&
            t.cents === cents &&
            t.status === 'POSTED',
        );
        const legs = original.legs.map((leg) => ({
          id: leg.id === op.transactionId ? answer.ids[0]! : null,
          account: leg.account,
          type: opposite(leg.type),
        }));
        const reversal = newPosting(legs, cents, false);
        reversal.reverses = original;
        original.reversedBy = reversal;
        this.reversible.push(answer.ids[0]!);
        break;
      }
    }
  }

  /** Customer-side entries the acknowledged operations wrote (a transfer two, its reversal two, the rest one). */
  expectedEntries(): number {
    return this.postings.reduce((sum, posting) => sum + posting.legs.length, 0);
  }

  /** Posted balance and pending amounts per account, in cents, as the acknowledged operations imply. */
  expectedBalances(): Map<string, { posted: number; pendingDebits: number; pendingCredits: number }> {
    const balances = new Map(this.accounts.map((id) => [id, { posted: 0, pendingDebits: 0, pendingCredits: 0 }]));
    for (const posting of this.postings) {
      for (const leg of posting.legs) {
        const balance = balances.get(leg.account)!;
        if (posting.status === 'POSTED')
          balance.posted += leg.type === 'CREDIT' ? posting.postedCents! : -posting.postedCents!;
        else if (posting.status === 'PENDING') {
          if (leg.type === 'DEBIT') balance.pendingDebits += posting.authorizedCents;
          else balance.pendingCredits += posting.authorizedCents;
        }
      }
    }
    return balances;
  }

  /** Refusals that the final state must explain (a hold found settled was settled by an acknowledged request …). */
  refusalProblems(): string[] {
    const problems: string[] = [];
    for (const { op, code } of this.refused.values()) {
      if (op.kind !== 'post' && op.kind !== 'void' && op.kind !== 'reverse') continue;
      const target = this.byTransaction.get(op.transactionId);
      if (!target) problems.push(`${op.kind} ${op.key} refused ${code} for a transaction no client was told of`);
      else if (code === 'TRANSACTION_NOT_PENDING' && target.status === 'PENDING')
        problems.push(
          `${op.kind} ${op.key} refused TRANSACTION_NOT_PENDING, yet no acknowledged request settled hold ${op.transactionId}`,
        );
      else if (code === 'TRANSACTION_ALREADY_REVERSED' && !target.reversedBy)
        problems.push(
          `reverse ${op.key} refused TRANSACTION_ALREADY_REVERSED, yet no acknowledged reversal of ${op.transactionId}`,
        );
      else if (code === 'REVERSAL_NOT_REVERSIBLE' && !target.reverses)
        problems.push(
          `reverse ${op.key} refused REVERSAL_NOT_REVERSIBLE for ${op.transactionId}, which is not a reversal`,
        );
    }
    return problems;
  }
}

/** Operation mix of the workload (probabilities, in order). */
export function nextOp(model: BankModel, random: () => number): BankOp {
  const key = randomUUID();
  const accounts = model.accounts;
  const cents = (min: number, max: number) => min * 100 + Math.floor(random() * (max - min) * 100);
  const roll = random();
  if (roll < 0.3) {
    const from = pick(random, accounts);
    let to = pick(random, accounts);
    while (to === from) to = pick(random, accounts);
    return { kind: 'transfer', key, from, to, cents: cents(1, 60) };
  }
  if (roll < 0.4) return { kind: 'deposit', key, account: pick(random, accounts), cents: cents(1, 40) };
  if (roll < 0.52) return { kind: 'withdrawal', key, account: pick(random, accounts), cents: cents(1, 50) };
  if (roll < 0.66)
    return {
      kind: 'hold',
      key,
      account: pick(random, accounts),
      type: random() < 0.8 ? 'DEBIT' : 'CREDIT',
      cents: cents(2, 40),
    };
  if (roll < 0.84 && model.pendingHolds.length > 0) {
    // The oldest few holds: two clients often pick the same one (one of them must be refused).
    const hold = pick(random, model.pendingHolds.slice(0, 4));
    const leg = hold.legs[0]!;
    const settle = random();
    if (settle < 0.4) return { kind: 'void', key, account: leg.account, transactionId: leg.id! };
    const partial = settle < 0.7 && hold.authorizedCents > 1;
    return {
      kind: 'post',
      key,
      account: leg.account,
      transactionId: leg.id!,
      cents: partial ? 1 + Math.floor(random() * (hold.authorizedCents - 1)) : null,
    };
  }
  if (model.reversible.length > 0) {
    // Mostly recent postings, so that reversals race each other and the postings they undo.
    const recent = model.reversible.slice(-12);
    const transactionId = pick(random, recent);
    const posting = model.byTransaction.get(transactionId)!;
    const leg = posting.legs.find((l) => l.id === transactionId)!;
    return { kind: 'reverse', key, account: leg.account, transactionId };
  }
  return { kind: 'deposit', key, account: pick(random, accounts), cents: cents(1, 40) };
}

/**
 * Sends `op` until a definite answer (acknowledged or refused). `retry`: what to do with an answer that is
 * not definite (sleep and go on, or give up by returning false); a 5xx other than 503 is a problem but is
 * retried too, to reach the definite answer the model needs.
 */
export async function untilDefinite(
  surface: BankSurface,
  op: BankOp,
  model: BankModel,
  retry: (answer: BankAnswer, attempt: number, op: BankOp) => Promise<boolean>,
): Promise<BankAnswer | undefined> {
  for (let attempt = 1; ; attempt++) {
    const answer = await surface(op);
    if (answer.outcome === 'broken') model.problem(`${op.kind} ${op.key} answered ${answer.detail}`);
    if (answer.outcome === 'ack' || answer.outcome === 'refused') return answer;
    if (!(await retry(answer, attempt, op))) return undefined;
  }
}

/** Sends an acknowledged request again with its key: it must replay the same transaction ids. */
export function checkReplay(model: BankModel, op: BankOp, first: BankAnswer, again: BankAnswer): void {
  model.replaysChecked += 1;
  if (again.outcome !== 'ack' || !again.replayed || again.ids.join() !== first.ids.join()) {
    model.problem(
      `replay of ${op.kind} ${op.key} answered ${again.detail} replayed=${again.replayed} ids ${again.ids.join()} (first: ${first.ids.join()})`,
    );
  }
}

/**
 * The tables against what the clients were told. `final`: every client has its definite answer, so the
 * whole state must be exactly what the model implies; otherwise (mid-run, after a restart) only what no
 * in-flight request can change: the invariants, and every acknowledged transaction still there.
 */
export async function bankProblems(pool: pg.Pool, model: BankModel, options: { final: boolean }): Promise<string[]> {
  const problems = (await ledgerViolations(pool)).map((violation) => `invariant: ${violation}`);
  const ids = [...model.byTransaction.keys()];
  const { rows } = await pool.query<{
    id: string;
    account_id: string;
    type: EntryType;
    amount: string;
    posted_amount: string | null;
    status: string;
    reverses_entry_id: string | null;
    posting_id: string;
  }>(
    `SELECT id, account_id, type, amount::text, posted_amount::text, status, reverses_entry_id, posting_id FROM ledger_entries
     WHERE NOT is_settlement AND (id = ANY($1::uuid[]) OR $2::boolean)`,
    [ids, options.final],
  );
  const stored = new Map(rows.map((row) => [row.id, row]));
  let lost = 0;
  for (const id of ids) if (!stored.has(id)) lost += 1;
  if (lost > 0) problems.push(`${lost} acknowledged transactions missing from ledger_entries`);
  if (!options.final) return problems;

  // Every stored entry is one the clients were told of, or the other side of an acknowledged reversal.
  const reversedLegs = new Map<string, Posting>();
  for (const posting of model.postings)
    if (posting.reversedBy) for (const leg of posting.legs) reversedLegs.set(leg.id!, posting.reversedBy);
  let unknown = 0;
  for (const row of rows) {
    const posting = model.byTransaction.get(row.id);
    if (!posting) {
      const reversal = row.reverses_entry_id === null ? undefined : reversedLegs.get(row.reverses_entry_id);
      if (!reversal || !reversal.legs.some((leg) => leg.id === null && leg.account === row.account_id)) unknown += 1;
      continue;
    }
    const leg = posting.legs.find((l) => l.id === row.id)!;
    const want = {
      account: leg.account,
      type: leg.type,
      amount: posting.authorizedCents,
      status: posting.status,
      posted: posting.postedCents,
    };
    const have = {
      account: row.account_id,
      type: row.type,
      amount: toCentsFromText(row.amount),
      status: row.status,
      posted: row.posted_amount === null ? null : toCentsFromText(row.posted_amount),
    };
    if (JSON.stringify(want) !== JSON.stringify(have))
      problems.push(
        `transaction ${row.id} is ${JSON.stringify(have)}, the acknowledged requests imply ${JSON.stringify(want)}`,
      );
    const reversesId = posting.reverses
      ? posting.reverses.legs.find((l) => l.account === leg.account && l.type !== leg.type)?.id
      : null;
    if ((row.reverses_entry_id ?? null) !== (reversesId ?? null))
      problems.push(`transaction ${row.id} reverses ${row.reverses_entry_id}, expected ${reversesId}`);
  }
  if (unknown > 0) problems.push(`${unknown} stored transactions no client was told of (duplicates or refused writes)`);
  if (rows.length !== model.expectedEntries())
    problems.push(`${rows.length} customer-side entries stored, ${model.expectedEntries()} acknowledged`);
  const reversalEntries = rows.filter((row) => row.reverses_entry_id !== null).length;
  const expectedReversalEntries = model.postings.filter((p) => p.reverses).reduce((sum, p) => sum + p.legs.length, 0);
  if (reversalEntries !== expectedReversalEntries)
    problems.push(`${reversalEntries} reversal entries stored, ${expectedReversalEntries} acknowledged`);

  // Balances as the acknowledged operations imply them.
  const accounts = await pool.query<{ id: string; amount: string; pending_debits: string; pending_credits: string }>(
    'SELECT id, amount::text, pending_debits::text, pending_credits::text FROM accounts WHERE id = ANY($1::uuid[])',
    [model.accounts],
  );
  const expected = model.expectedBalances();
  for (const row of accounts.rows) {
    const want = expected.get(row.id)!;
    const have = {
      posted: toCentsFromText(row.amount),
      pendingDebits: toCentsFromText(row.pending_debits),
      pendingCredits: toCentsFromText(row.pending_credits),
    };
    if (JSON.stringify(want) !== JSON.stringify(have))
      problems.push(
        `account ${row.id} holds ${JSON.stringify(have)}, the acknowledged operations imply ${JSON.stringify(want)}`,
      );
  }
  if (accounts.rows.length !== model.accounts.length)
    problems.push(`${model.accounts.length - accounts.rows.length} accounts missing`);

  // Keys: each acknowledged one recorded once with its one audit event; no refused one left anything.
  const acknowledgedKeys = [...model.acknowledged.keys()];
  const refusedKeys = [...model.refused.keys()];
  const keyRows = await pool.query<{ key: string; records: string; with_result: string; audits: string }>(
    // Grouped once per table and joined, not a subquery per key: audit_events has no index on the key, and a
    // long run (20 failovers) has tens of thousands of keys.
    `WITH k AS (SELECT unnest($1::text[]) AS key),
          i AS (SELECT key, count(*) AS records, count(*) FILTER (WHERE result IS NOT NULL) AS with_result
                FROM idempotency_keys WHERE environment = $2 AND key = ANY($1::text[]) GROUP BY key),
          a AS (SELECT idempotency_key AS key, count(*) AS audits
                FROM audit_events WHERE environment = $2 AND idempotency_key = ANY($1::text[]) GROUP BY idempotency_key)
     SELECT k.key, coalesce(i.records, 0) AS records, coalesce(i.with_result, 0) AS with_result, coalesce(a.audits, 0) AS audits
     FROM k LEFT JOIN i USING (key) LEFT JOIN a USING (key)`,
    [[...acknowledgedKeys, ...refusedKeys], ENVIRONMENT],
  );
  let badAcknowledged = 0;
  let leftByRefused = 0;
  for (const row of keyRows.rows) {
    if (model.acknowledged.has(row.key)) {
      if (row.records !== '1' || row.with_result !== '1' || row.audits !== '1') badAcknowledged += 1;
    } else if (row.records !== '0' || row.audits !== '0') leftByRefused += 1;
  }
  if (badAcknowledged > 0)
    problems.push(`${badAcknowledged} acknowledged keys without exactly one idempotency record and one audit event`);
  if (leftByRefused > 0)
    problems.push(`${leftByRefused} refused requests left an idempotency record or an audit event`);
  const transactionAudits = await pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM audit_events WHERE environment = $1 AND operation IN ('transaction.create', 'transfer.create', 'transaction.post', 'transaction.void', 'transaction.reverse') AND (idempotency_key IS NULL OR NOT (idempotency_key = ANY($2::text[])))",
    [ENVIRONMENT, acknowledgedKeys],
  );
  if (transactionAudits.rows[0]!.n !== '0')
    problems.push(`${transactionAudits.rows[0]!.n} ledger audit events of writes no client was told of`);
  problems.push(...model.refusalProblems());
  return problems;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SetupCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;

/**
 * `count` USD accounts of one customer, the first with an overdraft limit of `overdraftCents`; answers the
 * model over them, funded by one acknowledged deposit of `fundCents` each (through `surface`, with a key).
 */
export async function openBank(
  call: SetupCall,
  surface: BankSurface,
  options: {
    accounts: number;
    overdraftCents: number;
    fundCents: number;
    retry: (answer: BankAnswer, attempt: number, op: BankOp) => Promise<boolean>;
  },
): Promise<{ model: BankModel; overdraftAccount: string }> {
  const customer = await call(
    'POST',
    `/${ENVIRONMENT}/customer`,
    buildCustomerInput({ preferredName: 'Bank workload' }),
  );
  if (customer.status !== 201) throw new Error(`creating the customer answered ${customer.status}`);
  const accounts: string[] = [];
  for (let i = 0; i < options.accounts; i++) {
    const res = await call(
      'POST',
      `/${ENVIRONMENT}/account`,
      buildAccountInput([customer.json.data.customerId], { name: `bank ${i}`, currency: 'USD' }),
    );
    if (res.status !== 201) throw new Error(`creating account ${i} answered ${res.status}`);
    accounts.push(res.json.data.accountId);
  }
  const overdraftAccount = accounts[0]!;
  const limit = await call('PUT', `/${ENVIRONMENT}/account/${overdraftAccount}/overdraft-limit`, {
    overdraftLimit: options.overdraftCents / 100,
  });
  if (limit.status !== 200) throw new Error(`setting the overdraft limit answered ${limit.status}`);
  const model = new BankModel(accounts);
  for (const account of accounts) {
    const op: BankOp = { kind: 'deposit', key: randomUUID(), account, cents: options.fundCents };
    const answer = await untilDefinite(surface, op, model, options.retry);
    if (answer?.outcome !== 'ack') throw new Error(`funding ${account} answered ${answer?.detail}`);
    model.apply(op, answer);
  }
  return { model, overdraftAccount };
}

export interface ClientOptions {
  /** Stop taking new operations (the one in flight still gets its definite answer). */
  stopped: () => boolean;
  /** Operations per client at most. */
  operations: number;
  /** Share of acknowledged operations sent again with the same key to check the replay. */
  replayShare: number;
  retry: (answer: BankAnswer, attempt: number, op: BankOp) => Promise<boolean>;
  /** Called with every definite answer (latency figures). */
  onAnswer?: (op: BankOp, answer: BankAnswer) => void;
  /** The next operation; the default is the workload's mix. */
  next?: (model: BankModel, random: () => number) => BankOp;
}

/** One client: operations one after the other, each retried with its key until a definite answer, then applied to the model. */
export async function runBankClient(
  model: BankModel,
  surface: BankSurface,
  random: () => number,
  options: ClientOptions,
): Promise<number> {
  let done = 0;
  while (!options.stopped() && done < options.operations && model.problems.length < 50) {
    const op = (options.next ?? nextOp)(model, random);
    const answer = await untilDefinite(surface, op, model, options.retry);
    if (!answer) return done;
    options.onAnswer?.(op, answer);
    model.apply(op, answer);
    done += 1;
    if (answer.outcome === 'ack' && random() < options.replayShare) {
      const again = await untilDefinite(surface, op, model, options.retry);
      if (again) checkReplay(model, op, answer, again);
    }
  }
  return done;
}
