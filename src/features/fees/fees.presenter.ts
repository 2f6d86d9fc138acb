import { z } from 'zod';
import type { Page } from '../../domain/pagination.js';
import { recordId } from '../../presenters/record-id.js';
import type { MaintenanceFeeAssessment } from './fees.js';

/**
 * What leaves the service of an account's maintenance fee assessments (docs/adr/0115): the strict schemas the OpenAPI
 * document is generated from, and the presenter. Amounts are exact decimal strings, never floats.
 */
const decimal = (what: string) => z.string().describe(what);

export const feeAssessmentDataSchema = z
  .strictObject({
    month: z.string().describe('The month assessed, YYYY-MM (on its last business date).'),
    minimumDailyBalance: decimal(
      "The lowest end-of-day posted balance of the month's days the account existed (holds do not count).",
    ),
    fee: decimal("The product's monthly maintenance fee as applied."),
    waivedAtMinimumDailyBalance: decimal(
      "The product's waiver threshold as applied: the fee is waived when minimumDailyBalance reached it.",
    )
      .nullable()
      .describe('Null: the product never waives the fee.'),
    outcome: z
      .enum(['WAIVED', 'CHARGED', 'UNCOLLECTED'])
      .describe(
        'WAIVED: nothing charged. CHARGED: all or part of the fee debited. UNCOLLECTED: nothing could be debited (no room within the overdraft limit, a frozen account, debits blocked).',
      ),
    charged: decimal('Debited to the account.'),
    uncollected: decimal('What did not fit within the overdraft limit, or was refused: recorded, never debited later.'),
    transactionId: recordId.nullable().describe("The fee's transaction on the account; null when nothing was debited."),
  })
  .describe("One month's maintenance fee assessment of an account.");

export const feeAssessmentPageDataSchema = z
  .strictObject({
    fees: z.array(feeAssessmentDataSchema).describe('Newest month first.'),
    nextAfter: z
      .string()
      .nullable()
      .describe('Pass as `after` for the next (older) page: a month, YYYY-MM; null on the last page.'),
  })
  .describe("A page of an account's maintenance fee assessments.");

export const presentFeeAssessment = (
  assessment: MaintenanceFeeAssessment,
): z.infer<typeof feeAssessmentDataSchema> => ({
  month: assessment.month,
  minimumDailyBalance: assessment.minimumDailyBalance,
  fee: assessment.fee,
  waivedAtMinimumDailyBalance: assessment.waivedAtMinimumDailyBalance,
  outcome: assessment.outcome,
  charged: assessment.charged,
  uncollected: assessment.uncollected,
  transactionId: assessment.transactionId,
});

export const presentFeeAssessmentPage = (page: Page<MaintenanceFeeAssessment>) => ({
  fees: page.items.map(presentFeeAssessment),
  nextAfter: page.nextAfter,
});
