/**
 * A valid SSN for every sequence number below 665 * 99 * 9999, never the same twice: area 001–665,
 * group 01–99, serial 0001–9999 (no unissued area, group or serial). The seed takes the first numbers,
 * each write run the next block, so every create in a benchmark carries a new SSN.
 */
export function ssnForSequence(sequence: number): string {
  const area = 1 + (sequence % 665);
  const group = 1 + (Math.floor(sequence / 665) % 99);
  const serial = 1 + Math.floor(sequence / (665 * 99));
  if (serial > 9999) throw new Error(`SSN sequence ${sequence} is out of range`);
  return `${String(area).padStart(3, '0')}-${String(group).padStart(2, '0')}-${String(serial).padStart(4, '0')}`;
}

/**
 * The creation body the bench sends (the load generator's POST /{env}/customer, the outbox check): its SSN,
 * document locator number and e-mail address are the sequence's own, so no two creations collide.
 */
export function customerForSequence(sequence: number) {
  return {
    socialSecurityNumber: ssnForSequence(sequence),
    dateOfBirth: '1985-04-12',
    documentLocatorNumber: 20_000_000_000 + sequence,
    preferredName: 'Alex',
    firstName: 'Alexandra',
    middleName: 'Jane',
    lastName: 'Doe',
    emails: [`alex.${sequence}@example.com`],
    phoneNumbers: [{ type: 'MOBILE', number: '+1 555 010 1234' }],
    addresses: [{ type: 'HOME', street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' }],
  };
}
