import fc from 'fast-check';

/**
 * Values for fuzzing: valid ones by meaning (an SSN, a currency, a date of birth) and adversarial ones
 * (wrong types, edge numbers, unicode edge cases, prototype keys, huge and deep values). Shared by the
 * REST and GraphQL fuzzers.
 */

/** A valid SSN (area 001–665 or 667–899, group 01–99, serial 0001–9999), dashed or not. */
export const validSsn = fc
  .tuple(
    fc.integer({ min: 1, max: 898 }),
    fc.integer({ min: 1, max: 99 }),
    fc.integer({ min: 1, max: 9999 }),
    fc.boolean(),
  )
  .map(([area, group, serial, dashed]) => {
    const a = String(area >= 666 ? area + 1 : area).padStart(3, '0');
    const g = String(group).padStart(2, '0');
    const s = String(serial).padStart(4, '0');
    return dashed ? `${a}-${g}-${s}` : `${a}${g}${s}`;
  });

export const dateOfBirth = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2020-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

export const simpleEmail = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9.]{0,12}[a-z0-9]$/),
    fc.constantFrom('example.com', 'bank.test', 'mail.example.org'),
  )
  .map(([local, domain]) => `${local.replace(/\.\.+/g, '.')}@${domain}`);

export const upperSnake = fc.stringMatching(/^[A-Z][A-Z0-9]{0,10}(_[A-Z0-9]{1,5}){0,2}$/);
export const phoneNumber = fc.stringMatching(/^\+?[0-9][0-9 ().-]{3,20}$/);
export const currency = fc.oneof(
  fc.constantFrom('USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD'),
  fc.stringMatching(/^[A-Z]{3}$/),
);

/** Plain text within limits: printable, trimmed, never empty. */
export const plainText = (max: number) =>
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(max, 40) })
    .map((s) => s.trim() || 'x')
    .filter((s) => s.length <= max && !/\p{Cc}/u.test(s));

/** Numbers JSON can carry that break naive code: beyond safe integers, negative zero, extremes. */
export const edgeNumber = fc.constantFrom(
  0,
  -0,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  2 ** 63,
  2 ** 64 + 1,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
  2147483648,
  -2147483649,
);

/** Text that is numeric-looking, empty, whitespace, injection-shaped, or a unicode edge case. */
export const edgeString = fc.constantFrom(
  '',
  ' ',
  '\t',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '-0',
  '0x1F',
  '  42  ',
  '9007199254740993',
  'null',
  'undefined',
  'true',
  '__proto__',
  'constructor',
  '\u0000',
  'a\u0000b',
  '\u200b',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\uffff',
  '\u202eevil',
  'e\u0301',
  '👨‍👩‍👧‍👦',
  'ＡＢＣ',
  'İı',
  'ß',
  '\u{10FFFF}',
  "'; DROP TABLE customers; --",
  '" OR 1=1 --',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/x}',
  '{{7*7}}',
  '%00',
  '%s%s%s%n',
  '../../etc/passwd',
  '\\',
  'line\nbreak',
  'CR\rLF',
);

/** A string just over or far beyond every limit (the largest stays under the 64 KiB body limit with its neighbours). */
export const longString = fc
  .constantFrom(101, 255, 256, 1000, 5000, 30_000)
  .chain((length) => fc.constantFrom('a', 'é', '😀', ' ', '9').map((unit) => unit.repeat(length)));

/** Own `__proto__` / `constructor` keys, as JSON.parse creates them (an object literal would set the prototype); a fresh object each time. */
export const prototypeObject = fc
  .constantFrom(
    '{"__proto__":{"isAdmin":true,"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"__proto__":null}',
    '{"prototype":{"toString":"x"}}',
    '{"hasOwnProperty":1,"toString":2,"valueOf":3}',
  )
  .map((text) => JSON.parse(text) as Record<string, unknown>);

/** Nesting a few hundred levels deep (parsers and validators that recurse would overflow). */
export const deepValue = fc.integer({ min: 50, max: 1000 }).chain((depth) =>
  fc.constantFrom('array', 'object').map((kind) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
    return value;
  }),
);

/** Anything a client could put where a value belongs. */
export const adversarialValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: edgeString },
  { weight: 2, arbitrary: edgeNumber },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('null', 'true', 'false', '[]', '{}', '[null]', '[[]]', '[{}]')
      .map((text) => JSON.parse(text) as unknown),
  },
  { weight: 1, arbitrary: longString },
  { weight: 1, arbitrary: prototypeObject },
  { weight: 1, arbitrary: deepValue },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(edgeString, { maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 50 }) },
);

/** Keys a body should not have: prototype names, read-only and write-once fields, look-alikes, random text. */
export const strayKey = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'customerId',
    'accountId',
    'accountIds',
    'accounts',
    'amount',
    'customers',
    'flags',
    'transactions',
    'socialSecurityNumber',
    'documentLocatorNumber',
    'firstName',
    'type',
    'SocialSecurityNumber',
    'social_security_number',
    'name ',
    '',
    '\u0000',
    '$where',
  ),
  fc.string({ maxLength: 20 }),
);
