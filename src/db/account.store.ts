import type { Account } from '../domain/accounts/account.js';
import type { AccountStore, NewAccountRecord, PageRequest } from '../domain/ports.js';
import { isRecordMissing } from './errors.js';
import type { Prisma, PrismaClient } from './prisma-client.js';

type Client = PrismaClient | Prisma.TransactionClient;

const ACCOUNT_COLUMNS = {
  id: true,
  type: true,
  name: true,
  currency: true,
  amount: true,
  flags: true,
  customerLinks: { select: { customerId: true }, orderBy: { position: 'asc' } },
} satisfies Prisma.AccountSelect;

type AccountRow = Prisma.AccountGetPayload<{ select: typeof ACCOUNT_COLUMNS }>;

const toAccount = (row: AccountRow): Account => ({
  accountId: row.id,
  type: row.type,
  name: row.name,
  amount: row.amount.toString(),
  currency: row.currency,
  customerIds: row.customerLinks.map((link) => link.customerId),
  transactions: [],
  flags: row.flags,
});

export class PrismaAccountStore implements AccountStore {
  constructor(private readonly client: Client) {}

  /** Must run inside a transaction that has locked the customers (see AccountService.create). */
  async insert(record: NewAccountRecord): Promise<Account> {
    const row = await this.client.account.create({
      data: { id: record.id, environment: record.environment, type: record.type, name: record.name, currency: record.currency },
      select: { id: true, type: true, name: true, currency: true, amount: true, flags: true },
    });
    await this.client.accountCustomer.createMany({
      data: record.customerIds.map((customerId, position) => ({
        accountId: record.id,
        customerId,
        environment: record.environment,
        position,
      })),
    });
    return toAccount({ ...row, customerLinks: record.customerIds.map((customerId) => ({ customerId })) });
  }

  async findById(environment: string, id: string): Promise<Account | null> {
    const row = await this.client.account.findUnique({ where: { id_environment: { id, environment } }, select: ACCOUNT_COLUMNS });
    return row ? toAccount(row) : null;
  }

  async findByIds(environment: string, ids: readonly string[]): Promise<Account[]> {
    const rows = await this.client.account.findMany({ where: { environment, id: { in: [...ids] } }, select: ACCOUNT_COLUMNS });
    return rows.map(toAccount);
  }

  async update(environment: string, id: string, changes: { name: string; currency: string }): Promise<Account | null> {
    try {
      const row = await this.client.account.update({
        where: { id_environment: { id, environment } },
        data: { name: changes.name, currency: changes.currency, updatedAt: new Date() },
        select: ACCOUNT_COLUMNS,
      });
      return toAccount(row);
    } catch (error) {
      if (isRecordMissing(error)) return null;
      throw error;
    }
  }

  async delete(environment: string, id: string): Promise<boolean> {
    // Links go with the account (ON DELETE CASCADE), in the same statement.
    const { count } = await this.client.account.deleteMany({ where: { id, environment } });
    return count > 0;
  }

  async list(environment: string, page: PageRequest): Promise<Account[]> {
    const rows = await this.client.account.findMany({
      where: { environment, ...(page.after !== undefined && { id: { gt: page.after } }) },
      orderBy: { id: 'asc' },
      take: page.first,
      select: ACCOUNT_COLUMNS,
    });
    return rows.map(toAccount);
  }
}
