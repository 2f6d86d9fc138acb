import { Router } from 'express';
import type { HttpDependencies } from '../http/dependencies.js';

// Placeholder until the GraphQL surface lands (issue 4).
export async function createGraphqlMiddleware(_deps: HttpDependencies): Promise<{ router: Router; close(): Promise<void> }> {
  return { router: Router(), close: async () => undefined };
}
