/**
 * A business's tax id (docs/adr/0090). For an entity formed in the US, an EIN: nine digits, written as
 * NN-NNNNNNN or without the dash; elsewhere 1–32 letters and digits. Normalised before it is sealed and indexed
 * (digits only for an EIN, upper case otherwise), so `12-3456789` and `123456789` are one tax id.
 */
export const TAX_ID_RULE =
  'Must be a tax id: for formationCountry US an EIN (NN-NNNNNNN or nine digits), otherwise 1-32 letters and digits.';

export function normaliseTaxId(value: string, formationCountry: string | undefined): string | undefined {
  if (formationCountry === 'US') {
    const match = /^(\d{2})-?(\d{7})$/.exec(value);
    return match ? `${match[1]}${match[2]}` : undefined;
  }
  return /^[A-Za-z0-9]{1,32}$/.test(value) ? value.toUpperCase() : undefined;
}
