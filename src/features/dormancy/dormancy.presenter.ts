import { z } from 'zod';
import type { Page } from '../../domain/pagination.js';
import { recordId } from '../../presenters/record-id.js';
import type { EscheatmentItem } from './dormancy.service.js';
import { ESCHEATMENT_STATES } from './escheatment-periods.js';

/** What leaves the service of the escheatment list (docs/dormancy-and-escheatment.md): strict, field by field. */
export const escheatmentEntryDataSchema = z
  .strictObject({
    accountId: recordId,
    currency: z.string().describe('ISO 4217.'),
    balance: z.number().describe("The posted balance, as an account's `amount`."),
    status: z
      .enum(['ACTIVE', 'INACTIVE', 'DORMANT'])
      .describe('ACTIVE (no dormancy status yet), INACTIVE or DORMANT (INACTIVE_AFTER_DAYS / DORMANT_AFTER_DAYS).'),
    state: z.enum(ESCHEATMENT_STATES).describe("The USPS code of its primary owner's (first OWNER's first) address."),
    lastActivityAt: z.iso
      .datetime()
      .describe("Its last customer-initiated activity (RFC 3339, UTC, by the environment's clock)."),
    dueDate: z.iso
      .date()
      .describe("The day its state's dormancy period ends (last activity plus the period), in the environment's zone."),
    owners: z
      .array(
        z.strictObject({
          customerId: recordId,
          name: z
            .string()
            .optional()
            .describe("A person's first and last name, a business's legal name; only with `customers:read`."),
        }),
      )
      .describe('Its OWNER customers, in its order: ids and names only (never an SSN or a tax id).'),
  })
  .describe('An account due for escheatment, or due within the notice window.');

export const escheatmentPageDataSchema = z
  .strictObject({
    accounts: z.array(escheatmentEntryDataSchema).describe('By accountId.'),
    nextAfter: recordId.nullable().describe('Pass as `after` for the next page; null on the last page.'),
  })
  .describe('A page of the accounts due for escheatment.');

export const presentEscheatmentPage = (page: Page<EscheatmentItem>): z.infer<typeof escheatmentPageDataSchema> => ({
  accounts: page.items.map((item) => ({
    accountId: item.accountId,
    currency: item.currency,
    balance: Number(item.balance),
    status: item.status,
    state: item.state as (typeof ESCHEATMENT_STATES)[number],
    lastActivityAt: item.lastActivityAt,
    dueDate: item.dueDate,
    owners: item.owners.map((owner) => ({
      customerId: owner.customerId,
      ...(owner.name !== undefined && { name: owner.name }),
    })),
  })),
  nextAfter: page.nextAfter,
});
