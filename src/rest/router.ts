import { Router } from 'express';
import type { HttpDependencies } from '../http/dependencies.js';

// Placeholder until the REST surface lands (issue 3).
export function createRestRouter(_deps: HttpDependencies): Router {
  return Router();
}
