import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiJson } from '../openapi/document.js';

/**
 * `npm run openapi [-- <file>]`: writes the OpenAPI document of the REST surface, the same bytes
 * GET /openapi.json serves, to ./openapi.json (or the given file). `npm run check:generated` fails when
 * the committed file differs.
 */
const target = path.resolve(process.argv[2] ?? 'openapi.json');
writeFileSync(target, openApiJson());
process.stdout.write(`OpenAPI document written to ${path.relative(process.cwd(), target) || target}\n`);
