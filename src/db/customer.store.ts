import type { Address, Customer, Phone } from '../domain/customers/customer.js';
import { customerAlreadyExists } from '../domain/errors.js';
import type { CustomerChanges, CustomerStore, NewCustomerRecord, PageRequest } from '../domain/ports.js';
import { isRecordMissing, isUniqueViolation } from './errors.js';
import type { Prisma, PrismaClient } from './prisma-client.js';

type Client = PrismaClient | Prisma.TransactionClient;

/**
 * The columns a customer read may touch. The encrypted SSN, document locator number and blind index
 * are deliberately absent: what is never selected can never be returned.
 */
const CUSTOMER_COLUMNS = {
  id: true,
  dateOfBirth: true,
  preferredName: true,
  firstName: true,
  middleName: true,
  lastName: true,
  emails: true,
  phoneNumbers: true,
  addresses: true,
  accountLinks: { select: { accountId: true }, orderBy: [{ createdAt: 'asc' }, { accountId: 'asc' }] },
} satisfies Prisma.CustomerSelect;

type CustomerRow = Prisma.CustomerGetPayload<{ select: typeof CUSTOMER_COLUMNS }>;

const toCustomer = (row: CustomerRow): Customer => ({
  customerId: row.id,
  accountIds: row.accountLinks.map((link) => link.accountId),
  preferredName: row.preferredName,
  firstName: row.firstName,
  middleName: row.middleName,
  lastName: row.lastName,
  dateOfBirth: row.dateOfBirth.toISOString().slice(0, 10),
  emails: row.emails,
  phoneNumbers: row.phoneNumbers as unknown as Phone[],
  addresses: row.addresses as unknown as Address[],
});

export class PrismaCustomerStore implements CustomerStore {
  constructor(private readonly client: Client) {}

  async insert(record: NewCustomerRecord): Promise<void> {
    try {
      await this.client.customer.create({
        data: {
          id: record.id,
          environment: record.environment,
          ssnBlindIndex: Buffer.from(record.sealed.ssnBlindIndex),
          ssnCiphertext: Buffer.from(record.sealed.ssnCiphertext),
          documentLocatorNumberCiphertext: Buffer.from(record.sealed.documentLocatorNumberCiphertext),
          piiKeyId: record.sealed.keyId,
          dateOfBirth: new Date(`${record.dateOfBirth}T00:00:00Z`),
          preferredName: record.preferredName,
          firstName: record.firstName,
          middleName: record.middleName,
          lastName: record.lastName,
          emails: record.emails,
          phoneNumbers: record.phoneNumbers as unknown as Prisma.InputJsonValue,
          addresses: record.addresses as unknown as Prisma.InputJsonValue,
        },
        select: { id: true },
      });
    } catch (error) {
      // The only unique key a new row can clash on is (environment, ssn_blind_index): ids are fresh UUIDs.
      if (isUniqueViolation(error)) throw customerAlreadyExists();
      throw error;
    }
  }

  async findById(environment: string, id: string): Promise<Customer | null> {
    const row = await this.client.customer.findUnique({ where: { id_environment: { id, environment } }, select: CUSTOMER_COLUMNS });
    return row ? toCustomer(row) : null;
  }

  async findByIds(environment: string, ids: readonly string[]): Promise<Customer[]> {
    const rows = await this.client.customer.findMany({ where: { environment, id: { in: [...ids] } }, select: CUSTOMER_COLUMNS });
    return rows.map(toCustomer);
  }

  async update(environment: string, id: string, changes: CustomerChanges): Promise<Customer | null> {
    try {
      const row = await this.client.customer.update({
        where: { id_environment: { id, environment } },
        data: {
          ...(changes.preferredName !== undefined && { preferredName: changes.preferredName }),
          ...(changes.emails !== undefined && { emails: changes.emails }),
          ...(changes.phoneNumbers !== undefined && { phoneNumbers: changes.phoneNumbers as unknown as Prisma.InputJsonValue }),
          ...(changes.addresses !== undefined && { addresses: changes.addresses as unknown as Prisma.InputJsonValue }),
          updatedAt: new Date(),
        },
        select: CUSTOMER_COLUMNS,
      });
      return toCustomer(row);
    } catch (error) {
      if (isRecordMissing(error)) return null;
      throw error;
    }
  }

  async lockForDeletion(environment: string, id: string): Promise<boolean> {
    const rows = await this.client.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM customers WHERE id = ${id}::uuid AND environment = ${environment} FOR UPDATE`;
    return rows.length > 0;
  }

  async countLinkedAccounts(environment: string, id: string): Promise<number> {
    return this.client.accountCustomer.count({ where: { customerId: id, environment } });
  }

  async delete(environment: string, id: string): Promise<void> {
    await this.client.customer.delete({ where: { id_environment: { id, environment } }, select: { id: true } });
  }

  async lockForLinking(environment: string, ids: readonly string[]): Promise<string[]> {
    // FOR KEY SHARE blocks deletion (FOR UPDATE) but not contact-field updates; sorted to avoid deadlocks.
    const rows = await this.client.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM customers
      WHERE environment = ${environment} AND id = ANY(${[...ids]}::uuid[])
      ORDER BY id FOR KEY SHARE`;
    return rows.map((row) => row.id);
  }

  async list(environment: string, page: PageRequest): Promise<Customer[]> {
    const rows = await this.client.customer.findMany({
      where: { environment, ...(page.after !== undefined && { id: { gt: page.after } }) },
      orderBy: { id: 'asc' },
      take: page.first,
      select: CUSTOMER_COLUMNS,
    });
    return rows.map(toCustomer);
  }
}
