import { describe, expect, it } from 'vitest';
import { AUDIT_OPERATIONS as CONSOLE_OPERATIONS } from '../../console/src/audit-operations.js';
import { AUDIT_OPERATIONS } from '../../src/domain/audit-event.js';

describe("the console's audit filter", () => {
  it("offers exactly the service's audit operations, in the same order", () => {
    expect([...CONSOLE_OPERATIONS]).toEqual([...AUDIT_OPERATIONS]);
  });
});
