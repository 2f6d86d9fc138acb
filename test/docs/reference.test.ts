import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchorOf,
  CONFIGURATION_PAGE,
  ERRORS_PAGE,
  REQUEST_ERRORS_PAGE,
  FEATURE_CONFIGURATION_PAGE,
  errorExamples,
  findRaisers,
  readSettings,
  renderConfiguration,
  renderReference,
} from '../../scripts/docs-reference.js';
import { REQUEST_ERROR_CODES } from '../../src/auth/errors.js';
import { ErrorCodes } from '../../src/domain/errors.js';
import { GraphqlErrorCodes } from '../../src/graphql/error-mapping.js';
import { configuredVariables } from '../support/config.js';

/**
 * docs/reference/configuration.md and docs/reference/errors.md are rendered from the code by
 * scripts/docs-reference.ts (`npm run docs:reference`); `npm run check:generated` regenerates them too.
 */
describe('the generated reference pages', () => {
  const rendered = renderReference();

  it('are current: rendered in memory, they equal the committed pages', () => {
    for (const page of [CONFIGURATION_PAGE, FEATURE_CONFIGURATION_PAGE, ERRORS_PAGE, REQUEST_ERRORS_PAGE])
      expect(readFileSync(page, 'utf8'), `${page} is stale: npm run docs:reference`).toBe(rendered.get(page));
  });

  it('the configuration reference has a row for every setting of the schema, and no other', () => {
    const page = rendered.get(CONFIGURATION_PAGE)! + rendered.get(FEATURE_CONFIGURATION_PAGE)!;
    const rows = [...page.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
    expect(rows).toEqual(configuredVariables());
    expect(readSettings().map((setting) => setting.name)).toEqual(configuredVariables());
  });

  it('fails when a setting of the schema has no description, or a description names no setting', () => {
    const settings = readSettings();
    expect(() =>
      renderConfiguration([
        ...settings,
        { name: 'NOT_A_SETTING', section: 'serverEnv', expression: 'z.string()', default: '', format: 'text' },
      ]),
    ).toThrow(/no text for NOT_A_SETTING/);
    expect(() => renderConfiguration(settings.filter((setting) => setting.name !== 'PORT'))).toThrow(
      /settings the schema does not have: PORT/,
    );
  });

  it("puts the service's own sections on the first page and the features' on the second", () => {
    const headings = (page: string) => [...rendered.get(page)!.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(headings(CONFIGURATION_PAGE)).toEqual([
      'Server',
      'Database',
      'Access',
      'Personal data',
      'Logging',
      'Metrics',
      'HTTP',
      'Startup',
    ]);
    expect(headings(FEATURE_CONFIGURATION_PAGE)).toEqual(
      expect.arrayContaining(['Jobs', 'Webhooks', 'Sign-in (OIDC)', 'GraphQL', 'Clock']),
    );
    expect(rendered.get(CONFIGURATION_PAGE)).toContain('| `PORT` |');
    expect(rendered.get(FEATURE_CONFIGURATION_PAGE)).toContain('| `GRAPHQL_MAX_COST` |');
  });

  it('states the defaults the schema writes, and the accepted ranges', () => {
    const page = rendered.get(CONFIGURATION_PAGE)! + rendered.get(FEATURE_CONFIGURATION_PAGE)!;
    expect(page).toContain('| `PORT` | `3000` | whole number, 0–65,535 |');
    expect(page).toContain('| `BODY_LIMIT` | `64kb` | bytes, 1kb–10mb');
    expect(page).toContain('| `GRAPHQL_MAX_COST` | `25000` | whole number, 1–1,000,000,000,000 |');
  });

  // The catalogue's two pages, read as one.
  const catalogue = () => `${rendered.get(ERRORS_PAGE)!}\n${rendered.get(REQUEST_ERRORS_PAGE)!}`;

  it('the error catalogue names every code, with the status of its kind', () => {
    const page = catalogue();
    const codes = [...page.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]+) \|/gm)].map((match) => [
      match[1],
      match[2]!.trim(),
    ]);
    const documented = codes.map(([code]) => code);
    for (const code of [
      ...ErrorCodes,
      ...REQUEST_ERROR_CODES,
      ...Object.values(GraphqlErrorCodes),
      'INTERNAL_ERROR',
      'MALFORMED_REQUEST',
      'ROUTE_NOT_FOUND',
      'METHOD_NOT_ALLOWED',
      'PAYLOAD_TOO_LARGE',
      'UNSUPPORTED_MEDIA_TYPE',
    ]) {
      expect(documented).toContain(code);
    }
    const status = Object.fromEntries(codes);
    expect(status).toMatchObject({
      UNAUTHENTICATED: '401',
      FORBIDDEN: '403',
      CUSTOMER_NOT_FOUND: '404, 422',
      INSUFFICIENT_FUNDS: '409',
      RATE_LIMITED: '429',
      INTERNAL_ERROR: '500',
      SERVICE_UNAVAILABLE: '503',
      QUERY_TOO_COMPLEX: '400',
      TOO_MANY_NODES: '200',
    });
  });

  it('links each code to its real request on the REST errors page, whose examples name only codes the catalogue has, at their status', () => {
    const page = catalogue();
    const statuses = Object.fromEntries(
      [...page.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]+) \|/gm)].map((match) => [
        match[1]!,
        match[2]!.trim().split(', '),
      ]),
    );
    const examples = errorExamples();
    expect(examples.get('VALIDATION_FAILED')?.[0]?.anchor).toBe(
      '400-validation_failed-one-detail-per-problem-never-the-submitted-value',
    );
    for (const [code, shown] of examples) {
      for (const { status, anchor } of shown) {
        expect(statuses[code], code).toContain(status);
        expect(page).toContain(`(rest-errors.md#${anchor})`);
      }
    }
    expect(anchorOf('409 CUSTOMER_ALREADY_EXISTS: the same SSN (dashes or not)')).toBe(
      '409-customer_already_exists-the-same-ssn-dashes-or-not',
    );
  });
});

describe('where the error catalogue finds a code raised', () => {
  it('counts a factory call as raising it, but not one inside an OpenAPI failure(...) over several lines', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'raisers-'));
    const file = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.relative(path.resolve(import.meta.dirname, '../..'), path.join(dir, name));
    };
    const factory = file(
      'errors.ts',
      "\nexport const ledgerBusy = () =>\n  new DomainError('LEDGER_BUSY', 'unavailable');\n",
    );
    const documents = file(
      'documents.ts',
      "const busy = failure(\n  'LEDGER_BUSY',\n  'The ledger is busy (retry); nothing moves.',\n  ledgerBusy(),\n);\n",
    );
    const raises = file('raises.ts', 'export function post() {\n  throw wrap(\n    ledgerBusy(),\n  );\n}\n');
    const raisers = findRaisers([factory, documents, raises]).get('LEDGER_BUSY');
    expect([...(raisers?.files ?? [])]).toEqual([raises]);
    expect([...(raisers?.kinds ?? [])]).toEqual(['unavailable']);
  });
});
