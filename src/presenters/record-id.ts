import { z } from 'zod';

/** A UUID assigned by the service, as every response schema of src/presenters/ describes it. */
export const recordId = z.uuid().describe('A UUID assigned by the service, lower case.');
