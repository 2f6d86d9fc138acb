import { readFileSync } from 'node:fs';
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  type IntrospectionQuery,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  lexicographicSortSchema,
  printSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { graphql } from './helpers.js';

const SENSITIVE_FIELD = /ssn|socialSecurity|documentLocator/i;

let service: TestService;
let introspection: IntrospectionQuery;
beforeAll(async () => {
  service = await startTestService();
  const result = await graphql(service, getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
  expect(result.status).toBe(200);
  introspection = result.json.data as IntrospectionQuery;
});
afterAll(async () => service?.stop());

describe('the served schema', () => {
  it('is exactly schema.graphql (the SDL is the source of truth)', () => {
    const served = printSchema(lexicographicSortSchema(buildClientSchema(introspection)));
    const source = printSchema(lexicographicSortSchema(buildSchema(readFileSync('schema.graphql', 'utf8'))));
    // Introspection does not carry schema directives' uses (@listSize), only their definitions.
    expect(served).toBe(source.replace(/ @listSize\((assumedSize|slicingArguments): [^)]*\)/g, ''));
  });

  it('has no output field for a social security or document locator number', () => {
    const schema = buildClientSchema(introspection);
    const outputFields = Object.values(schema.getTypeMap())
      .filter((type) => (isObjectType(type) || isInterfaceType(type)) && !type.name.startsWith('__'))
      .flatMap((type) =>
        Object.keys((type as { getFields(): Record<string, unknown> }).getFields()).map(
          (field) => `${type.name}.${field}`,
        ),
      );
    expect(outputFields.length).toBeGreaterThan(40);
    expect(outputFields.filter((name) => SENSITIVE_FIELD.test(name))).toEqual([]);
  });

  it('takes both identifiers on create only (and the SSN in a search input), as write-only input fields', () => {
    const schema = buildClientSchema(introspection);
    const inputFields = Object.values(schema.getTypeMap())
      .filter(isInputObjectType)
      .flatMap((type) => Object.keys(type.getFields()).map((field) => `${type.name}.${field}`));
    expect(inputFields.filter((name) => SENSITIVE_FIELD.test(name)).sort()).toEqual([
      'CreateCustomerInput.documentLocatorNumber',
      'CreateCustomerInput.socialSecurityNumber',
      'CustomerSearchInput.socialSecurityNumber',
    ]);
    expect(String(schema.getType('CreateCustomerInput')?.toConfig().description)).toMatch(/write-only/);
  });

  it('documents every type, field, argument and input field', () => {
    const undocumented: string[] = [];
    for (const type of introspection.__schema.types) {
      if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
      if (!type.description) undocumented.push(type.name);
      if (type.kind === 'OBJECT' || type.kind === 'INTERFACE') {
        for (const field of type.fields) {
          if (!field.description) undocumented.push(`${type.name}.${field.name}`);
          for (const arg of field.args)
            if (!arg.description) undocumented.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (type.kind === 'INPUT_OBJECT')
        for (const field of type.inputFields) if (!field.description) undocumented.push(`${type.name}.${field.name}`);
    }
    expect(undocumented).toEqual([]);
  });
});
