/**
 * Dormancy periods for demand deposits (checking accounts), in years from the owner's last indication of interest,
 * after which each US state (and DC) presumes the deposit abandoned and the bank reports and remits it as unclaimed
 * property (escheatment). Applied by the state of the account's primary owner's address (docs/dormancy-and-escheatment.md).
 *
 * DATA, NOT LAW. As of 2024-06 (the sources' date). Sources: "Escheatment Laws by State 2024", World Population Review
 * (https://worldpopulationreview.com/state-rankings/escheatment-laws-by-state: required dormancy for bank accounts),
 * checked where possible against NAUPA's per-property-type summaries (https://unclaimed.org, "Report Unclaimed
 * Property") and the Revised Uniform Unclaimed Property Act's three-year demand-deposit rule as enacted (e.g. Vermont,
 * 27 V.S.A. § 1241(6)). States amend these periods often: this table MUST be reviewed by the bank's compliance team
 * before it is relied on, and on every change of a state's statute (then change `AS_OF` and the entry).
 */
export const ESCHEATMENT_PERIODS_AS_OF = '2024-06-01';

export const ESCHEATMENT_PERIOD_SOURCES = [
  'https://worldpopulationreview.com/state-rankings/escheatment-laws-by-state',
  'https://unclaimed.org/menu-group/report-unclaimed-property/',
  'Revised Uniform Unclaimed Property Act (2016) § 201(6), as enacted, e.g. 27 V.S.A. § 1241(6)',
] as const;

/** USPS state code → years of dormancy for a demand deposit. */
export const ESCHEATMENT_PERIOD_YEARS = {
  AL: 3,
  AK: 5,
  AZ: 3,
  AR: 3,
  CA: 3,
  CO: 5,
  CT: 3,
  DE: 5,
  DC: 3,
  FL: 5,
  GA: 5,
  HI: 5,
  ID: 5,
  IL: 3,
  IN: 3,
  IA: 3,
  KS: 5,
  KY: 3,
  LA: 5,
  ME: 3,
  MD: 3,
  MA: 3,
  MI: 3,
  MN: 3,
  MS: 5,
  MO: 5,
  MT: 5,
  NE: 5,
  NV: 3,
  NH: 5,
  NJ: 3,
  NM: 5,
  NY: 3,
  NC: 5,
  ND: 5,
  OH: 5,
  OK: 5,
  OR: 3,
  PA: 3,
  RI: 3,
  SC: 5,
  SD: 3,
  TN: 3,
  TX: 3,
  UT: 3,
  VT: 3,
  VA: 5,
  WA: 3,
  WV: 5,
  WI: 5,
  WY: 5,
} as const satisfies Record<string, number>;

export type EscheatmentState = keyof typeof ESCHEATMENT_PERIOD_YEARS;
export const ESCHEATMENT_STATES = Object.keys(ESCHEATMENT_PERIOD_YEARS) as EscheatmentState[];
