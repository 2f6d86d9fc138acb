import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../src/features/events/index.js';
import { webhookBody } from '../../../src/features/webhooks/webhook-delivery.job.js';

/**
 * `customer.verification_updated` in a webhook delivery (docs/adr/0101, ADR 2): the statuses for an endpoint whose
 * registrant held `verification:read`, the customer's id and the scope it lacked otherwise (`customers:read` alone
 * does not show a verification).
 */
const EVENT: DomainEvent = {
  eventId: '0193a5c2-9b22-7f13-8a7c-2d4e6f8a0b32',
  type: 'customer.verification_updated',
  sequence: 7,
  occurredAt: '2026-12-02T10:00:02.000Z',
  resourceType: 'customer',
  resourceId: '0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10',
  data: {
    kind: 'verification',
    customerId: '0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10',
    status: 'VERIFIED',
    previousStatus: 'PENDING',
  },
  changedFields: ['status'],
};

describe('customer.verification_updated in a webhook delivery', () => {
  it('shows the statuses to an endpoint registered with verification:read', () => {
    expect(JSON.parse(webhookBody(EVENT, ['verification:read']))).toEqual({
      type: 'customer.verification_updated',
      timestamp: EVENT.occurredAt,
      data: expect.objectContaining({
        type: 'customer.verification_updated',
        resourceId: EVENT.resourceId,
        data: { customerId: EVENT.resourceId, status: 'VERIFIED', previousStatus: 'PENDING' },
      }),
    });
  });

  it('withholds them from one registered with customers:read and accounts:read only', () => {
    expect(JSON.parse(webhookBody(EVENT, ['customers:read', 'accounts:read'])).data.data).toEqual({
      customerId: EVENT.resourceId,
      changedFields: ['status'],
      requiredScope: 'verification:read',
    });
  });
});
