import { auditEventFor } from '../../domain/audit-event.js';
import { authorize, isAuthorized } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { accountNotFound, accountNumberCanceled, accountNumberNotFound } from '../../domain/errors.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { parseInput } from '../../domain/validation.js';
import {
  DEFAULT_ROUTING_NUMBER,
  type AccountNumberStatus,
  type InboundAchDebits,
  isAccountNumber,
  last4Of,
  newAccountNumber,
} from './account-number.js';
import {
  addAccountNumberSchema,
  lookupAccountNumberSchema,
  updateAccountNumberSchema,
} from './account-number.schemas.js';
import type {
  AccountNumberRecord,
  AccountNumberSealer,
  AccountNumberStore,
  NewAccountNumberRow,
  SealedAccountNumberRecord,
} from './ports.js';

/** How many times a number is drawn again when the one drawn is taken in the environment (10^11 numbers: never, in practice). */
const DRAWS = 5;

/** An account number in full, as only the scoped list answers it. */
export interface RevealedAccountNumber extends AccountNumberRecord {
  accountNumber: string;
  routingNumber: string;
}

/** An account number as every other answer shows it: its last four digits. */
export interface MaskedAccountNumber extends AccountNumberRecord {
  routingNumber: string;
}

export interface AccountNumberLookup {
  accountId: string;
  accountNumberId: string;
  status: AccountNumberStatus;
  inboundAchDebits: InboundAchDebits;
}

export interface AccountNumberOptions {
  /** Each environment's ABA routing number (ROUTING_NUMBERS); DEFAULT_ROUTING_NUMBER for one it does not name. */
  routingNumbers?: Readonly<Record<string, string>>;
}

/**
 * A new random number, sealed for its row: what account creation writes in its own statement and what `add` writes.
 * The digits leave this function only as ciphertext, blind index and last four.
 */
export function issueAccountNumber(
  sealer: AccountNumberSealer,
  environment: string,
  accountId: string,
  id: string = newId(),
): NewAccountNumberRow {
  const number = newAccountNumber();
  const sealed = sealer.sealAccountNumber({ environment, accountId, accountNumberId: id }, number);
  return {
    id,
    keyId: sealed.keyId,
    ciphertext: sealed.ciphertext,
    blindIndex: sealed.blindIndex,
    last4: last4Of(number),
  };
}

const masked = ({
  accountNumberId,
  accountId,
  last4,
  status,
  inboundAchDebits,
  createdAt,
  updatedAt,
}: AccountNumberRecord) => ({
  accountNumberId,
  accountId,
  last4,
  status,
  inboundAchDebits,
  createdAt,
  updatedAt,
});

/**
 * Account and routing numbers (docs/adr/0107). Every account gets one at its creation (in the creation's own
 * statement: src/features/accounts); one created before this feature gets its first when its numbers are first
 * read. The full digits are answered only by `list` (`accounts:numbers:read`, each read audited); every other
 * answer has the last four. `add` and `update` need `accounts:controls`; `lookup` needs `accounts:numbers:lookup`
 * and is audited, found or not. Every refusal is a coded DomainError and changes nothing.
 */
export class AccountNumberService {
  constructor(
    private readonly stores: { accountNumbers: AccountNumberStore },
    private readonly sealer: AccountNumberSealer,
    private readonly options: AccountNumberOptions = {},
  ) {}

  routingNumber(environment: string): string {
    return this.options.routingNumbers?.[environment] ?? DEFAULT_ROUTING_NUMBER;
  }

  /** The sealed row of a new account's first number (account creation calls it; the caller's statement writes it). */
  issue(environment: string, accountId: string): NewAccountNumberRow {
    return issueAccountNumber(this.sealer, environment, accountId);
  }

  /**
   * The account's numbers in full, oldest first, with the routing number. Audited (`account.account_number.read`)
   * before anything is answered. An account with none yet (created before this feature) is issued one first.
   * Refusals: FORBIDDEN, ACCOUNT_NOT_FOUND.
   */
  async list(caller: Caller, accountId: string): Promise<RevealedAccountNumber[]> {
    authorize(caller, 'accounts:numbers:read');
    if (!isRecordId(accountId)) throw accountNotFound();
    const id = accountId.toLowerCase();
    let rows = await this.stores.accountNumbers.listSealed(caller.environment, id);
    if (rows === null) throw accountNotFound();
    if (rows.length === 0) {
      await this.insertNew(caller, id, 'ALLOWED');
      rows = (await this.stores.accountNumbers.listSealed(caller.environment, id)) ?? [];
    }
    await this.stores.accountNumbers.audit(
      auditEventFor(caller, {
        operation: 'account.account_number.read',
        resourceType: 'account',
        resourceId: id,
        changedFields: [],
      }),
    );
    return rows.map((row) => this.reveal(caller.environment, row));
  }

  /**
   * GraphQL's `Account.accountNumbers` under a list of accounts, batched: each account's numbers in full with
   * `accounts:numbers:read` (one audit row per account read), [] for an id naming no account. FORBIDDEN without it.
   */
  async listOfMany(caller: Caller, accountIds: readonly string[]): Promise<RevealedAccountNumber[][]> {
    authorize(caller, 'accounts:numbers:read');
    const ids = accountIds.filter(isRecordId).map((id) => id.toLowerCase());
    const lists = ids.length > 0 ? await this.stores.accountNumbers.listOfMany(caller.environment, ids) : [];
    const byId = new Map(ids.map((id, i) => [id, lists[i]!]));
    for (const [id, rows] of byId)
      if (rows.length > 0)
        await this.stores.accountNumbers.audit(
          auditEventFor(caller, {
            operation: 'account.account_number.read',
            resourceType: 'account',
            resourceId: id,
            changedFields: [],
          }),
        );
    return accountIds.map((id) =>
      (byId.get(id.toLowerCase()) ?? []).map((row) => this.reveal(caller.environment, row)),
    );
  }

  /** The last four digits of each account's first number that is not CANCELED (null: none), under `accounts:read`. */
  async last4OfMany(caller: Caller, accountIds: readonly string[]): Promise<(string | null)[]> {
    authorize(caller, 'accounts:read');
    const ids = accountIds.filter(isRecordId).map((id) => id.toLowerCase());
    const lists = ids.length > 0 ? await this.stores.accountNumbers.listOfMany(caller.environment, ids) : [];
    const byId = new Map(ids.map((id, i) => [id, lists[i]!]));
    return accountIds.map((id) => last4Shown(byId.get(id.toLowerCase()) ?? []));
  }

  /** Whether the caller may read numbers in full (GraphQL answers a coded FORBIDDEN on the field otherwise). */
  mayReveal(caller: Caller): boolean {
    return isAuthorized(caller, 'accounts:numbers:read');
  }

  /**
   * Another number for the account (ACTIVE), answered with its last four only. Refusals: FORBIDDEN,
   * VALIDATION_FAILED, ACCOUNT_NOT_FOUND.
   */
  async add(caller: Caller, accountId: string, input: unknown): Promise<MaskedAccountNumber> {
    authorize(caller, 'accounts:controls');
    const valid = parseInput(addAccountNumberSchema, input ?? {});
    if (!isRecordId(accountId)) throw accountNotFound();
    const created = await this.insertNew(caller, accountId.toLowerCase(), valid.inboundAchDebits ?? 'ALLOWED');
    return { ...masked(created), routingNumber: this.routingNumber(caller.environment) };
  }

  /**
   * Sets `status` and/or `inboundAchDebits`. Refusals, in order: FORBIDDEN, VALIDATION_FAILED (an unknown value,
   * neither field, another field), ACCOUNT_NUMBER_NOT_FOUND (not this account's), ACCOUNT_NUMBER_CANCELED (final).
   * Audited, a call that changes nothing too.
   */
  async update(
    caller: Caller,
    accountId: string,
    accountNumberId: string,
    input: unknown,
  ): Promise<MaskedAccountNumber> {
    authorize(caller, 'accounts:controls');
    const valid = parseInput(updateAccountNumberSchema, input);
    if (!isRecordId(accountId) || !isRecordId(accountNumberId)) throw accountNumberNotFound();
    const id = accountNumberId.toLowerCase();
    const changes = {
      ...(valid.status !== undefined && { status: valid.status }),
      ...(valid.inboundAchDebits !== undefined && { inboundAchDebits: valid.inboundAchDebits }),
    };
    const updated = await this.stores.accountNumbers.update(
      caller.environment,
      accountId.toLowerCase(),
      id,
      changes,
      auditEventFor(caller, {
        operation: 'account.account_number.update',
        resourceType: 'account_number',
        resourceId: id,
        changedFields: Object.keys(changes),
      }),
    );
    if (updated.outcome === 'not-found') throw accountNumberNotFound();
    if (updated.outcome === 'canceled') throw accountNumberCanceled();
    return { ...masked(updated.accountNumber), routingNumber: this.routingNumber(caller.environment) };
  }

  /**
   * The account an inbound payment's routing and account number name, with the number's controls. Audited, found
   * or not (resourceId: the number, or the look-up's own id). ACCOUNT_NUMBER_NOT_FOUND when the routing number is
   * not this environment's or the account number is none of its numbers; the answer is the same either way.
   */
  async lookup(caller: Caller, input: unknown): Promise<AccountNumberLookup> {
    authorize(caller, 'accounts:numbers:lookup');
    const valid = parseInput(lookupAccountNumberSchema, input);
    const found =
      valid.routingNumber === this.routingNumber(caller.environment) && isAccountNumber(valid.accountNumber)
        ? await this.stores.accountNumbers.findByBlindIndex(
            caller.environment,
            this.sealer.accountNumberBlindIndex(caller.environment, valid.accountNumber),
          )
        : null;
    await this.stores.accountNumbers.audit(
      auditEventFor(caller, {
        operation: 'account_number.lookup',
        resourceType: 'account_number',
        resourceId: found?.accountNumberId ?? newId(),
        changedFields: found ? ['found'] : [],
      }),
    );
    if (!found) throw accountNumberNotFound();
    return {
      accountId: found.accountId,
      accountNumberId: found.accountNumberId,
      status: found.status,
      inboundAchDebits: found.inboundAchDebits,
    };
  }

  private async insertNew(caller: Caller, accountId: string, inboundAchDebits: InboundAchDebits) {
    for (let draw = 0; draw < DRAWS; draw++) {
      const row = issueAccountNumber(this.sealer, caller.environment, accountId);
      const inserted = await this.stores.accountNumbers.insert(
        caller.environment,
        accountId,
        { ...row, inboundAchDebits },
        auditEventFor(caller, {
          operation: 'account.account_number.create',
          resourceType: 'account_number',
          resourceId: row.id,
          changedFields: ['accountNumber', 'status', 'inboundAchDebits'],
        }),
      );
      if (inserted.outcome === 'account-not-found') throw accountNotFound();
      if (inserted.outcome === 'created') return inserted.accountNumber;
    }
    throw new Error('No free account number after several draws');
  }

  private reveal(environment: string, row: SealedAccountNumberRecord): RevealedAccountNumber {
    const accountNumber = this.sealer.openAccountNumber(
      { environment, accountId: row.accountId, accountNumberId: row.accountNumberId },
      row,
    );
    return { ...masked(row), accountNumber, routingNumber: this.routingNumber(environment) };
  }
}

/**
 * The last four digits an account shows (its statements, GraphQL's `Account.accountNumbers`' reader without
 * `accounts:numbers:read`, a tax form): those of its first number, oldest first, that is not CANCELED; null when none.
 */
export const last4Shown = (numbers: readonly AccountNumberRecord[]): string | null =>
  numbers.find((row) => row.status !== 'CANCELED')?.last4 ?? null;
