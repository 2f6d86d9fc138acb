import currencyCodes from 'currency-codes';

/**
 * ISO 4217 codes an account may be denominated in: the active list one (from the currency-codes
 * package), minus the codes that are not currencies of deposit: precious metals, bond-market units,
 * the SDR, the SUCRE, the ADB unit of account, the testing code and "no currency".
 */
const NOT_DEPOSIT_CURRENCIES = new Set([
  'XAG',
  'XAU',
  'XPD',
  'XPT',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XDR',
  'XSU',
  'XUA',
  'XTS',
  'XXX',
]);

export const DEPOSIT_CURRENCIES: ReadonlySet<string> = new Set(
  currencyCodes.codes().filter((code) => !NOT_DEPOSIT_CURRENCIES.has(code)),
);

export const isDepositCurrency = (code: string): boolean => DEPOSIT_CURRENCIES.has(code);
