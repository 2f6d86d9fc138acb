import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_ERROR_CODES } from '../../src/auth/errors.js';
import { ErrorCodes } from '../../src/domain/errors.js';
import { buildOpenApiDocument, openApiJson, openApiPath } from '../../src/openapi/document.js';
import { REST_ROUTES } from '../../src/rest/routes.js';
import { startTestService, type TestService } from '../support/service.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildCustomerInput } from '../support/factories.js';
import { buildBusinessInput } from '../features/businesses/support.js';
import { documentedResponse } from './response-contract.js';

const { Spectral, Document } = spectralCore;
const OUTPUT_DIR = path.resolve('test-output/openapi');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Every example value under a response (inline `example`, `examples.*.value`, or a referenced example). */
function responseExamples(document: Json): unknown[] {
  const values: unknown[] = Object.values(document.components.examples as Record<string, Json>).map(
    (example) => example.value,
  );
  for (const operations of Object.values(document.paths as Record<string, Json>)) {
    for (const operation of Object.values(operations as Record<string, Json>)) {
      for (const response of [
        ...Object.values(operation.responses as Record<string, Json>),
        ...Object.values(document.components.responses as Record<string, Json>),
      ]) {
        // A shared response is read once, from components.responses.
        if (response.$ref !== undefined) continue;
        // A conditional GET's 304 has no body.
        if (response.content === undefined) continue;
        const media = response.content['application/json'];
        // The ledger export answers NDJSON or CSV only: no JSON example.
        if (!media) continue;
        if (media.example !== undefined) values.push(media.example);
        for (const example of Object.values((media.examples ?? {}) as Record<string, Json>))
          if (example.value !== undefined) values.push(example.value);
      }
    }
  }
  return values;
}

describe('the OpenAPI document', () => {
  const document: Json = buildOpenApiDocument();
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.stop();
  });

  it('is served at GET /openapi.json without a token, byte for byte the committed ./openapi.json', async () => {
    const res = await service.call('GET', '/openapi.json', { auth: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text).toBe(openApiJson());
    expect(readFileSync('openapi.json', 'utf8'), 'openapi.json is stale: run npm run openapi').toBe(openApiJson());
  });

  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(document));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it("lints with 0 errors under Spectral's OAS ruleset (all rules); the result is written to test-output/openapi/spectral.json", async () => {
    const spectral = new Spectral();
    // Every rule of the ruleset, not only its recommended subset.
    spectral.setRuleset({ extends: [[spectralRulesets.oas as spectralCore.RulesetDefinition, 'all']] });
    const results = await spectral.run(new Document(openApiJson(), spectralParsers.Json, 'openapi.json'));
    const summary = results.map((result) => ({
      severity: ['error', 'warning', 'information', 'hint'][result.severity],
      rule: result.code,
      path: result.path.join('.'),
      message: result.message,
    }));
    mkdirSync(OUTPUT_DIR, { recursive: true });
    writeFileSync(path.join(OUTPUT_DIR, 'spectral.json'), `${JSON.stringify(summary, null, 2)}\n`);
    const count = (severity: string) => summary.filter((result) => result.severity === severity).length;
    process.stdout.write(
      `Spectral (oas ruleset, all rules): ${count('error')} errors, ${count('warning')} warnings, ${count('information')} infos, ${count('hint')} hints\n`,
    );
    expect(summary.filter((result) => result.severity === 'error')).toEqual([]);
  });

  it("describes exactly the operations the router mounts, with the spec's templated paths", () => {
    const documented = Object.entries(document.paths as Record<string, Json>).flatMap(([template, operations]) =>
      Object.entries(operations as Json).map(
        ([method, operation]) => `${method.toUpperCase()} ${template} ${(operation as Json).operationId}`,
      ),
    );
    expect(documented.sort()).toEqual(
      REST_ROUTES.map((route) => `${route.method} ${openApiPath(route.path)} ${route.operationId}`).sort(),
    );
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/{environment}/customer',
        '/{environment}/customer/{customerId}',
        '/{environment}/account',
        '/{environment}/account/{accountId}',
        '/{environment}/audit-events',
      ]),
    );
  });

  it('uses log_ref_id on customer operations and logRefId on account operations', () => {
    const schemas = document.components.schemas;
    for (const route of REST_ROUTES) {
      const template = openApiPath(route.path);
      const method = route.method.toLowerCase();
      for (const status of Object.keys(document.paths[template][method].responses)) {
        const response: Json = documentedResponse(document, template, method, status);
        if (response.content === undefined) continue;
        const json = response.content['application/json'];
        // A success that is not the envelope (the ledger export: NDJSON or CSV; a document's bytes) has no log reference.
        if (!json) {
          expect('representations' in route || 'binaryAnswer' in route).toBe(true);
          continue;
        }
        const schema = json.schema;
        const name = (schema.$ref ?? schema.allOf[0].$ref).split('/').pop();
        const required = schemas[name].required as string[];
        expect(required).toContain(route.family === 'account' ? 'logRefId' : 'log_ref_id');
        expect(required).not.toContain(route.family === 'account' ? 'log_ref_id' : 'logRefId');
      }
    }
  });

  it('lists the error codes of each operation per status, and every code of the catalogue somewhere', () => {
    const codesByOperation = new Map<string, Map<string, string[]>>();
    for (const route of REST_ROUTES) {
      const byStatus = new Map<string, string[]>();
      const template = openApiPath(route.path);
      const method = route.method.toLowerCase();
      for (const status of Object.keys(document.paths[template][method].responses)) {
        if (status.startsWith('2') || status === '304') continue;
        const response: Json = documentedResponse(document, template, method, status);
        byStatus.set(
          status,
          response.content['application/json'].schema.allOf[1].properties.error.properties.code.enum,
        );
      }
      codesByOperation.set(route.operationId, byStatus);
    }
    expect(codesByOperation.get('deleteCustomer')!.get('409')).toEqual([
      'CUSTOMER_HAS_ACCOUNTS',
      'CUSTOMER_IS_A_BENEFICIAL_OWNER',
    ]);
    // An account on a product (docs/adr/0112): an unknown code, a type or currency that is not the product's.
    expect(codesByOperation.get('createAccount')!.get('422')).toEqual([
      'IDEMPOTENCY_KEY_REUSED',
      'CUSTOMER_NOT_FOUND',
      'PRODUCT_NOT_FOUND',
      'PRODUCT_MISMATCH',
    ]);
    expect(codesByOperation.get('getCustomer')!.get('404')).toEqual(['ENVIRONMENT_NOT_FOUND', 'CUSTOMER_NOT_FOUND']);
    expect(codesByOperation.get('updateAccount')!.get('400')).toEqual([
      'MALFORMED_REQUEST',
      'VALIDATION_FAILED',
      'FIELD_NOT_UPDATABLE',
    ]);
    for (const byStatus of codesByOperation.values()) {
      expect([...byStatus.keys()]).toEqual(expect.arrayContaining(['401', '403', '404', '500', '503']));
    }
    const everyCode = new Set([...codesByOperation.values()].flatMap((byStatus) => [...byStatus.values()].flat()));
    // A subscription's own refusal: no REST operation follows the event feed.
    // A verification vendor's callback's own (src/http/verification-callback.ts): not a client's REST operation.
    const subscriptionOnly = new Set([
      'SUBSCRIPTIONS_FULL',
      'VERIFICATION_CALLBACK_SIGNATURE_INVALID',
      'VERIFICATION_CHECK_NOT_FOUND',
      'VERIFICATION_CHECK_COMPLETED',
    ]);
    expect(
      [...ErrorCodes, ...REQUEST_ERROR_CODES].filter((code) => !everyCode.has(code) && !subscriptionOnly.has(code)),
    ).toEqual([]);
    for (const code of ['MALFORMED_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INTERNAL_ERROR'])
      expect(everyCode).toContain(code);
    for (const operationId of ['updateCustomer', 'deleteCustomer', 'updateAccount', 'deleteAccount']) {
      expect(codesByOperation.get(operationId)!.get('412')).toEqual(['PRECONDITION_FAILED']);
    }
  });

  it('shares its failure responses: every one a $ref to components.responses, each component used and distinct, one per envelope family and failure set', () => {
    const used = new Map<string, Set<string>>();
    for (const [template, operations] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(operations as Record<string, Json>)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          if (status.startsWith('2') || status === '304') continue;
          expect(response, `${method} ${template} ${status}`).toEqual({
            $ref: expect.stringMatching(/^#\/components\/responses\/[A-Za-z]+_?[A-Za-z0-9]*$/),
          });
          const name = response.$ref.split('/').pop();
          used.set(name, (used.get(name) ?? new Set()).add((operation as Json).operationId));
        }
      }
    }
    const components = document.components.responses as Record<string, Json>;
    expect([...used.keys()].sort()).toEqual(Object.keys(components).sort());
    expect(new Set(Object.values(components).map((response) => JSON.stringify(response))).size).toBe(
      Object.keys(components).length,
    );
    // 401 and 500: the same for every operation of a family, so one component per family.
    expect(
      Object.keys(components)
        .filter((name) => /Unauthorized|InternalError/.test(name))
        .sort(),
    ).toEqual(['AccountInternalError', 'AccountUnauthorized', 'CustomerInternalError', 'CustomerUnauthorized']);
    expect(used.get('CustomerUnauthorized')!.size + used.get('AccountUnauthorized')!.size).toBe(REST_ROUTES.length);
    for (const name of Object.keys(components)) {
      const envelope = components[name].content['application/json'].schema.allOf[0].$ref;
      expect(envelope).toBe(
        `#/components/schemas/${name.startsWith('Customer') ? 'Customer' : 'Account'}ErrorResponse`,
      );
    }
  });

  it('stays within its size budget: at most 11 KB per operation (it was 22.8 KB before failures were shared)', () => {
    const operations = Object.values(buildOpenApiDocument().paths).flatMap((item) =>
      Object.keys(item as object).filter((method) => ['get', 'put', 'post', 'delete', 'patch'].includes(method)),
    ).length;
    expect(operations).toBe(REST_ROUTES.length);
    expect(
      Buffer.byteLength(openApiJson()),
      `openapi.json grew past 11 KB for each of its ${operations} operations: share what repeats (components) rather than inline it`,
    ).toBeLessThanOrEqual(11_000 * operations);
  });

  it('documents ETag on the answers of single customers and accounts, If-Match (412) on their PUT and DELETE, If-None-Match (304) on their GET', () => {
    for (const [path, id] of [
      ['/{environment}/customer', 'customerId'],
      ['/{environment}/account', 'accountId'],
    ] as const) {
      const one = document.paths[`${path}/{${id}}`];
      const refs = (operation: Json) => operation.parameters.map((parameter: Json) => parameter.$ref);
      expect(Object.keys(document.paths[path].post.responses['201'].headers)).toContain('ETag');
      expect(Object.keys(one.get.responses['200'].headers)).toContain('ETag');
      expect(Object.keys(one.put.responses['200'].headers)).toContain('ETag');
      expect(Object.keys(one.delete.responses['200'].headers)).not.toContain('ETag');
      expect(one.get.responses['304']).toMatchObject({ headers: { ETag: { $ref: '#/components/headers/ETag' } } });
      expect(one.get.responses['304'].content).toBeUndefined();
      expect(refs(one.get)).toContain('#/components/parameters/IfNoneMatch');
      for (const write of [one.put, one.delete]) {
        expect(refs(write)).toContain('#/components/parameters/IfMatch');
        expect(write.responses['412']).toBeDefined();
      }
    }
  });

  it('documents the bearer scheme and the Idempotency-Key, X-Request-Id, Location, Idempotent-Replayed, Consistency-Token and WWW-Authenticate headers', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    const create = document.paths['/{environment}/customer'].post;
    expect(create.parameters.map((parameter: Json) => parameter.$ref)).toEqual(
      expect.arrayContaining(['#/components/parameters/IdempotencyKey', '#/components/parameters/XRequestId']),
    );
    expect(document.components.parameters.IdempotencyKey.schema).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 255,
    });
    expect(Object.keys(create.responses['201'].headers)).toEqual([
      'X-Request-Id',
      'Cache-Control',
      'Location',
      'Idempotent-Replayed',
      'Consistency-Token',
      'ETag',
    ]);
    // Read-your-writes: every write answers a token, every read may present one.
    const read = document.paths['/{environment}/customer/{customerId}'].get;
    expect(read.parameters.map((parameter: Json) => parameter.$ref)).toContain(
      '#/components/parameters/ConsistencyToken',
    );
    expect(Object.keys(read.responses['200'].headers)).not.toContain('Consistency-Token');
    expect(Object.keys(document.paths['/{environment}/customer/{customerId}'].put.responses['200'].headers)).toContain(
      'Consistency-Token',
    );
    const shared = (status: string): Json => documentedResponse(document, '/{environment}/customer', 'post', status);
    expect(Object.keys(shared('401').headers)).toContain('WWW-Authenticate');
    expect(Object.keys(shared('503').headers)).toContain('Retry-After');
  });

  it("takes request schemas from the domain: write-only identifiers, strict objects, the domain's limits", () => {
    const create = document.components.schemas.CreateCustomerRequest;
    expect(create.additionalProperties).toBe(false);
    expect(create.required).toHaveLength(10);
    expect(create.properties.socialSecurityNumber.writeOnly).toBe(true);
    expect(create.properties.documentLocatorNumber).toMatchObject({ type: 'integer', writeOnly: true });
    expect(create.properties.emails).toMatchObject({ type: 'array', maxItems: 10, items: { format: 'email' } });
    expect(document.components.schemas.UpdateCustomerRequest.required).toBeUndefined();
    for (const name of ['Customer', 'Account']) {
      const properties = Object.keys(document.components.schemas[name].properties);
      expect(properties).not.toContain('socialSecurityNumber');
      expect(properties).not.toContain('documentLocatorNumber');
    }
  });

  it("documents a business's creation beside a person's on POST /{environment}/customer: a oneOf, each side strict", () => {
    const media = document.paths['/{environment}/customer'].post.requestBody.content['application/json'];
    expect(media.schema).toEqual({
      oneOf: [
        { $ref: '#/components/schemas/CreateCustomerRequest' },
        { $ref: '#/components/schemas/CreateBusinessCustomerRequest' },
      ],
    });
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ ...document, $id: 'openapi.json' });
    const validBody = ajv.compile({
      $ref: 'openapi.json#/paths/~1{environment}~1customer/post/requestBody/content/application~1json/schema',
    });
    const business = buildBusinessInput();
    const person = buildCustomerInput();
    expect(validBody(business), JSON.stringify(validBody.errors)).toBe(true);
    expect(validBody(person)).toBe(true);
    expect(validBody({ ...person, customerType: 'INDIVIDUAL' })).toBe(true);
    // Neither side takes the other's fields, nor a business without its tax id.
    expect(validBody({ ...person, legalName: 'Acme LLC' })).toBe(false);
    expect(validBody({ ...business, firstName: 'Pat' })).toBe(false);
    const { taxId: _taxId, ...withoutTaxId } = business;
    expect(validBody(withoutTaxId)).toBe(false);
    const taxId = document.components.schemas.CreateBusinessCustomerRequest.properties.taxId;
    expect(taxId.writeOnly).toBe(true);
  });

  it('shows no SSN-like value in any response example; the only request SSN is the documentation example 123-45-6789', () => {
    const ssnLike = /(?<!\d)\d{3}-?\d{2}-?\d{4}(?!\d)/;
    // A routing number is nine digits by nature: the default test one (ROUTING_NUMBERS) is no SSN, and removed first.
    const withoutRoutingNumber = (text: string) => text.replaceAll('"routingNumber":"011000015"', '"routingNumber":""');
    for (const example of responseExamples(document))
      expect(withoutRoutingNumber(JSON.stringify(example))).not.toMatch(ssnLike);
    const requestSsns = REST_ROUTES.flatMap((route) => ('requestBody' in route ? [route.requestBody.example] : []))
      .map((example) => (example as Json).socialSecurityNumber)
      .filter(Boolean);
    // Creating a customer, and searching for one.
    expect(requestSsns).toEqual(['123-45-6789', '123-45-6789']);
  });
});
