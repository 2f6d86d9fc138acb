import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

/**
 * The domain's input schemas, found rather than listed: every zod schema exported by a module of the shared
 * kernel (src/domain) or of a feature's domain (src/features/<feature>/, but its adapters: stores and SQL, REST
 * operations, resolvers, presenters, jobs, index.ts), and a walk over zod 4's definitions (`schema._zod.def`) that reaches every schema inside them (objects' shapes,
 * arrays, optional/nullable/default, pipes and transforms, unions, records, string checks).
 */

export const DOMAIN_DIR = path.resolve('src/domain');
export const FEATURES_DIR = path.resolve('src/features');

/** A feature's files that are not its domain, by their names' kinds (as eslint.config.js tells them apart). */
const ADAPTER = /(\.(store|sql|read-model|rest|resolvers|presenter|job)\.ts|^index\.ts)$/;

export interface ExportedSchema {
  /** `customers/customer.schemas.ts › phoneSchema` */
  name: string;
  schema: z.ZodType;
}

const isSchema = (value: unknown): value is z.ZodType =>
  typeof value === 'object' &&
  value !== null &&
  '_zod' in value &&
  typeof (value as { safeParse?: unknown }).safeParse === 'function';

function moduleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return moduleFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The domain's modules: the kernel's, and each feature folder's but its adapters (not the aggregates beside them). */
function domainModules(): Array<{ root: string; file: string }> {
  const kernel = moduleFiles(DOMAIN_DIR).map((file) => ({ root: DOMAIN_DIR, file }));
  const features = readdirSync(FEATURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => moduleFiles(path.join(FEATURES_DIR, entry.name)))
    .filter((file) => !ADAPTER.test(path.basename(file)))
    .map((file) => ({ root: FEATURES_DIR, file }));
  return [...kernel, ...features].sort((a, b) =>
    path.relative(a.root, a.file).localeCompare(path.relative(b.root, b.file)),
  );
}

/** Every zod schema exported by a module of the domain, with its module's name (`customers/customer.schemas.ts`). */
export async function exportedDomainSchemas(): Promise<ExportedSchema[]> {
  const found: ExportedSchema[] = [];
  for (const { root, file } of domainModules()) {
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(exports)) {
      if (isSchema(value)) found.push({ name: `${path.relative(root, file)} › ${exportName}`, schema: value });
    }
  }
  return found;
}

/** The shared builders are functions; a schema of each, so that their patterns are walked even if unused. */
export async function builderSchemas(): Promise<ExportedSchema[]> {
  const validation = await import('../../src/domain/validation.js');
  return [
    { name: 'validation.ts › text(100)', schema: validation.text(100) },
    { name: 'validation.ts › multilineText(100)', schema: validation.multilineText(100) },
    { name: 'validation.ts › upperSnakeCase(64)', schema: validation.upperSnakeCase(64) },
    { name: 'validation.ts › list(text(10), 5)', schema: validation.list(validation.text(10), 5) },
  ];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Def = Record<string, any>;
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** Every schema reachable from `root` (itself included), each once. */
export function reachableSchemas(root: z.ZodType): z.ZodType[] {
  const seen = new Set<unknown>();
  const order: z.ZodType[] = [];
  const visit = (schema: unknown): void => {
    if (!isSchema(schema) || seen.has(schema)) return;
    seen.add(schema);
    order.push(schema);
    const def = defOf(schema);
    switch (def.type) {
      case 'object':
        for (const child of Object.values(def.shape as Record<string, unknown>)) visit(child);
        visit(def.catchall);
        break;
      case 'array':
        visit(def.element);
        break;
      case 'tuple':
        (def.items as unknown[]).forEach(visit);
        visit(def.rest);
        break;
      case 'union':
        (def.options as unknown[]).forEach(visit);
        break;
      case 'intersection':
        visit(def.left);
        visit(def.right);
        break;
      case 'record':
      case 'map':
        visit(def.keyType);
        visit(def.valueType);
        break;
      case 'set':
        visit(def.valueType);
        break;
      case 'pipe':
        visit(def.in);
        visit(def.out);
        break;
      case 'lazy':
        visit(def.getter());
        break;
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'nonoptional':
      case 'readonly':
      case 'catch':
      case 'success':
      case 'promise':
        visit(def.innerType);
        break;
      default:
        break;
    }
  };
  visit(root);
  return order;
}

export interface FoundPattern {
  pattern: RegExp;
  /** Where it was found: the exported schemas that reach it. */
  where: Set<string>;
}

/** The patterns a string schema runs: its own format's (z.email(), z.iso.datetime()) and those of its checks (.regex()). */
function patternsOf(schema: z.ZodType): RegExp[] {
  const def = defOf(schema);
  const patterns: RegExp[] = [];
  if (def.pattern instanceof RegExp) patterns.push(def.pattern);
  for (const check of (def.checks ?? []) as unknown[]) {
    const checkDef = defOf(check);
    if (checkDef.pattern instanceof RegExp) patterns.push(checkDef.pattern);
  }
  return patterns;
}

/** Every distinct pattern (by source and flags) that parsing any of `schemas` can run. */
export function reachablePatterns(schemas: readonly ExportedSchema[]): FoundPattern[] {
  const byKey = new Map<string, FoundPattern>();
  for (const { name, schema } of schemas) {
    for (const reached of reachableSchemas(schema)) {
      for (const pattern of patternsOf(reached)) {
        const key = `/${pattern.source}/${pattern.flags}`;
        const found = byKey.get(key) ?? { pattern, where: new Set<string>() };
        found.where.add(name);
        byKey.set(key, found);
      }
    }
  }
  return [...byKey.values()];
}

/**
 * The atoms of a pattern's source that consume one character: character classes (`[...]`), escapes (`\d`,
 * `\p{Cc}`, `\x20`, `\+`), `.` and literal characters. Groups, anchors, alternation and quantifiers are skipped.
 * A rough tokenizer, enough for the patterns of input schemas; an atom it cannot compile is left out.
 */
export function patternAtoms(pattern: RegExp): RegExp[] {
  const source = pattern.source;
  const flags = pattern.flags.replace(/[gy]/g, '');
  const atoms: string[] = [];
  for (let i = 0; i < source.length;) {
    const char = source[i]!;
    if (char === '\\') {
      const next = source[i + 1] ?? '';
      if ((next === 'p' || next === 'P') && source[i + 2] === '{') {
        const end = source.indexOf('}', i);
        atoms.push(source.slice(i, end + 1));
        i = end + 1;
      } else if (next === 'x') {
        atoms.push(source.slice(i, i + 4));
        i += 4;
      } else if (next === 'u') {
        atoms.push(source.slice(i, i + 6));
        i += 6;
      } else {
        atoms.push(source.slice(i, i + 2));
        i += 2;
      }
    } else if (char === '[') {
      let end = i + 1;
      if (source[end] === '^') end++;
      if (source[end] === ']') end++;
      while (end < source.length && source[end] !== ']') end += source[end] === '\\' ? 2 : 1;
      atoms.push(source.slice(i, end + 1));
      i = end + 1;
    } else if (char === '{') {
      i = source.indexOf('}', i) + 1;
    } else if (char === '(') {
      i += source[i + 1] === '?' ? (source[i + 2] === '<' ? 4 : 3) : 1;
    } else if ('^$|)*+?'.includes(char)) {
      i += 1;
    } else {
      atoms.push(char === '.' ? '.' : char.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'));
      i += 1;
    }
  }
  return atoms.flatMap((atom) => {
    try {
      return [new RegExp(`^(?:${atom})$`, flags)];
    } catch {
      return [];
    }
  });
}

/** Characters the adversarial inputs are made of: printable ASCII, controls, and a few beyond ASCII. */
export const CANDIDATE_CHARACTERS: readonly string[] = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)),
  '\u0000',
  '\t',
  '\n',
  '\r',
  '\u007f',
  '\u00a0',
  'é',
  'ß',
  '\u2028',
  '\u200b',
  '\ufeff',
  '😀',
  '\ud800',
];
