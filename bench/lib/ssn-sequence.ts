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
