/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Why an account was closed. */
export type AccountCloseReason =
  | 'BANK_DECISION'
  | 'CUSTOMER_REQUEST'
  | 'DECEASED'
  | 'DORMANCY'
  | 'FRAUD'
  | 'OTHER';

/** Filters of an account list; every given one must hold. External id: exact. Metadata: each given key has exactly the given value. */
export type AccountFilter = {
  /** An account number of the account (not CANCELED) ends in these four digits (the last four, as `accountNumberLast4`). */
  accountNumberLast4?: string | null | undefined;
  /** Exactly this ISO 4217 currency. */
  currency?: string | null | undefined;
  /** The accounts this customer holds. */
  customerId?: string | null | undefined;
  /** Exactly this external id. */
  externalId?: string | null | undefined;
  /** Accounts carrying this flag. */
  flag?: AccountFlag | null | undefined;
  /** Each given key with exactly the given value. */
  metadata?: Record<string, string> | null | undefined;
  /** Exactly this type, e.g. CHECKING. */
  type?: string | null | undefined;
};

/** A flag the ledger enforces on an account. */
export type AccountFlag =
  /** No credit posts on the account or is held. */
  | 'CREDITS_BLOCKED'
  /** No debit posts on the account or is held. */
  | 'DEBITS_BLOCKED'
  /** Nothing posts on the account, not even a credit or the posting of a hold; a hold can still be voided. */
  | 'FROZEN';

/** An account number's state (docs/adr/0107). */
export type AccountNumberStatus =
  /** Takes payments. */
  | 'ACTIVE'
  /** Refuses payments for ever: final. */
  | 'CANCELED'
  /** Refuses payments for now; may become ACTIVE again. */
  | 'DISABLED';

/**
 * What a customer is to an account. An account always has at least one OWNER (LAST_OWNER); AUTHORIZED_SIGNER and
 * AUTHORIZED_USER must be INDIVIDUAL customers, people (ROLE_REQUIRES_INDIVIDUAL).
 */
export type AccountRole =
  /** A person who may sign for the account on the owners' behalf. */
  | 'AUTHORIZED_SIGNER'
  /** A person who may use the account (e.g. a card) on the owners' behalf. */
  | 'AUTHORIZED_USER'
  /** Receives the account on the owners' death (payable on death). */
  | 'BENEFICIARY'
  /** Manages the account for an owner who cannot (e.g. a minor). */
  | 'CUSTODIAN'
  /** A holder of the account, as every linked customer was before roles existed; the default. */
  | 'OWNER';

/** Whether an account is open or closed (docs/account-lifecycle.md). */
export type AccountStatus =
  /** Closed: every posting is refused (ACCOUNT_CLOSED); reopenable within ACCOUNT_REOPEN_WINDOW_DAYS. */
  | 'CLOSED'
  /** Open, without customer-initiated activity for DORMANT_AFTER_DAYS: refuses a client's debits (ACCOUNT_DORMANT) until `reactivateAccount` or a customer's credit. */
  | 'DORMANT'
  /** Open, without customer-initiated activity for INACTIVE_AFTER_DAYS (the end of day set it); any customer activity makes it OPEN again. */
  | 'INACTIVE'
  | 'OPEN';

/** A beneficial owner to record (`addBeneficialOwner`). */
export type AddBeneficialOwnerInput = {
  /** The owner: an existing INDIVIDUAL customer of the environment, not the business itself. */
  customerId: string;
  /** Required with OWNERSHIP, refused without it: a decimal string from 0 to 100, at most 2 decimals, e.g. "33.33". */
  ownershipPercentage?: string | null | undefined;
  /** OWNERSHIP, CONTROL or both (each at most once). */
  prongs: Array<BeneficialOwnerProng>;
  /** The owner's title in the business, at most 100 characters. */
  title?: string | null | undefined;
};

/** A postal address of a customer. */
export type AddressInput = {
  /** City, up to 100 characters. */
  city: string;
  /** State or region, up to 100 characters. */
  state: string;
  /** Street and number, up to 200 characters. */
  street: string;
  /** What kind of address, upper case with underscores, e.g. HOME. */
  type: string;
  /** Postal code, up to 20 characters. */
  zip: string;
};

/** The balance interest is figured on: each day's closing balance, or the period's average daily balance. */
export type BalanceBasis =
  | 'AVERAGE_DAILY'
  | 'END_OF_DAY';

/** A prong of the FinCEN CDD rule (31 CFR 1010.230) under which an individual is a business's beneficial owner. */
export type BeneficialOwnerProng =
  /** Has significant responsibility to control, manage or direct the business. */
  | 'CONTROL'
  /** Owns, directly or indirectly, 25 % or more of the business: with an `ownershipPercentage`. */
  | 'OWNERSHIP';

/** A product's new rate: exactly one of `annualRate` and `tiers`, from `effectiveFrom`. */
export type ChangeProductRateInput = {
  /** A decimal string, 0 to below 1, at most 6 decimals. */
  annualRate?: string | null | undefined;
  /** A business date (YYYY-MM-DD) after the environment's current one. */
  effectiveFrom: string;
  /** 1 to 10 tiers, strictly ascending by `minimumBalance`, the first at "0". */
  tiers?: Array<RateTierInput> | null | undefined;
};

/** How often earned interest compounds. */
export type Compounding =
  | 'DAILY'
  | 'MONTHLY';

/**
 * A new business customer. The tax id is write-only: stored encrypted, never returned, never echoed in an error
 * message. Its identity (`legalName`, `taxId`, `entityType`, the formation) never changes once created.
 */
export type CreateBusinessCustomerInput = {
  /** Up to 10 postal addresses; may be empty. */
  addresses: Array<AddressInput>;
  /** The name it trades under, 1 to 200 characters. */
  doingBusinessAs?: string | null | undefined;
  /** Up to 10 email addresses; may be empty. */
  emails: Array<string>;
  /** What kind of entity it is. */
  entityType: EntityType;
  /** Optional: your own id for the customer, 1 to 128 characters, unique per environment (EXTERNAL_ID_TAKEN). */
  externalId?: string | null | undefined;
  /** The country it was formed in, ISO 3166-1 alpha-2 in upper case, e.g. US. */
  formationCountry: string;
  /** When it was formed, YYYY-MM-DD, not in the future. */
  formationDate: string;
  /** The state or province it was formed in, up to 100 characters. */
  formationState?: string | null | undefined;
  /** Its NAICS industry code, 2 to 6 digits. */
  industry?: string | null | undefined;
  /** Its registered legal name, 1 to 200 characters. */
  legalName: string;
  /** Optional: your key-value pairs (see `Metadata`); never personal data. */
  metadata?: Record<string, string> | null | undefined;
  /** Up to 10 phone numbers; may be empty. */
  phoneNumbers: Array<PhoneInput>;
  /** For formationCountry US an EIN (NN-NNNNNNN or nine digits), otherwise 1 to 32 letters and digits. Unique per environment. Write-only. */
  taxId: string;
  /** Its website, an http or https URL. */
  website?: string | null | undefined;
};

/**
 * A new customer. Every field is required. The social security number and document locator number are
 * write-only: they are stored encrypted, never returned, and never echoed in an error message.
 */
export type CreateCustomerInput = {
  /** Up to 10 postal addresses; may be empty. */
  addresses: Array<AddressInput>;
  /** Legal date of birth, YYYY-MM-DD, not in the future, not before 1900-01-01. */
  dateOfBirth: string;
  /** Used for tax purposes; a whole number from 0. Write-only. */
  documentLocatorNumber: number;
  /** Up to 10 email addresses; may be empty. */
  emails: Array<string>;
  /** Optional: your own id for the customer, 1 to 128 characters, unique per environment (EXTERNAL_ID_TAKEN). */
  externalId?: string | null | undefined;
  /** Legal first name, 1 to 100 characters. */
  firstName: string;
  /** Legal last name, 1 to 100 characters. */
  lastName: string;
  /** Optional: your key-value pairs (see `Metadata`); never personal data. */
  metadata?: Record<string, string> | null | undefined;
  /** Legal middle name, up to 100 characters; an empty string when the customer has none. */
  middleName: string;
  /** Up to 10 phone numbers; may be empty. */
  phoneNumbers: Array<PhoneInput>;
  /** The name the customer likes to be addressed by, 1 to 100 characters. */
  preferredName: string;
  /** Nine digits, written AAA-GG-SSSS or AAAGGSSSS. Unique per environment. Write-only. */
  socialSecurityNumber: string;
};

/** A new deposit product: REST's `POST /{environment}/product` body. */
export type CreateProductInput = {
  /** Upper snake case: the `type` its accounts must have. */
  accountType: string;
  /** Upper snake case, at most 32 characters, unique in the environment for ever. */
  code: string;
  /** ISO 4217: the currency its accounts must have. */
  currency: string;
  /** Optional: its fees. */
  fees?: ProductFeesInput | null | undefined;
  /** Optional: its interest terms and first rate (in force from today's business date). */
  interest?: ProductInterestInput | null | undefined;
  /** Optional: its limits. */
  limits?: ProductLimitsInput | null | undefined;
  /** Optional: the balance an account should keep, 0 or more. */
  minimumBalance?: string | null | undefined;
  /** Optional: the first deposit an account needs, 0 or more. */
  minimumOpeningDeposit?: string | null | undefined;
  /** 1 to 100 characters. */
  name: string;
};

/** Why a customer was archived. */
export type CustomerArchiveReason =
  | 'BANK_DECISION'
  | 'CUSTOMER_REQUEST'
  | 'DECEASED'
  | 'DUPLICATE'
  | 'FRAUD'
  | 'OTHER';

/**
 * Filters of a customer list; every given one must hold. Names: a prefix, case- and accent-insensitive ("mull"
 * finds "Müller"). Email: exact, case-insensitive. Phone number: exact once both sides are in E.164 (a number
 * without a country code is read as a US number). Date of birth: exact. Creation: from (inclusive) to
 * (exclusive). External id: exact. Metadata: each given key has exactly the given value.
 */
export type CustomerFilter = {
  /** Created at or after this instant: ISO 8601 with a time zone. */
  createdFrom?: string | null | undefined;
  /** Created before this instant: ISO 8601 with a time zone. */
  createdTo?: string | null | undefined;
  /** Only people (INDIVIDUAL) or only businesses (BUSINESS). */
  customerType?: CustomerType | null | undefined;
  /** YYYY-MM-DD. */
  dateOfBirth?: string | null | undefined;
  /** One of the customer's emails, exactly (case-insensitive). */
  email?: string | null | undefined;
  /** Exactly this external id. */
  externalId?: string | null | undefined;
  /** A prefix of the first name. */
  firstName?: string | null | undefined;
  /** A prefix of the last name. */
  lastName?: string | null | undefined;
  /** A prefix of a business's legal name (case- and accent-insensitive). */
  legalName?: string | null | undefined;
  /** Each given key with exactly the given value, e.g. {tier: "gold"}. */
  metadata?: Record<string, string> | null | undefined;
  /** One of the customer's phone numbers, compared in E.164: "(555) 123-4567" finds "+1 555 123 4567". */
  phoneNumber?: string | null | undefined;
  /**
   * ACTIVE or ARCHIVED (docs/account-lifecycle.md). Absent: active customers only (a search by SSN or tax id finds the
   * customer whatever its status).
   */
  status?: CustomerStatus | null | undefined;
  /**
   * Customers whose verification has this status (docs/verification.md); NEEDS_REVIEW is the review queue, UNVERIFIED
   * those never asked. Needs `verification:read` besides `customers:read` (FORBIDDEN naming it otherwise).
   */
  verificationStatus?: VerificationStatus | null | undefined;
};

/** The filters of `CustomerFilter` and a social security number or a business's tax id. */
export type CustomerSearchInput = {
  /** Created at or after this instant: ISO 8601 with a time zone. */
  createdFrom?: string | null | undefined;
  /** Created before this instant: ISO 8601 with a time zone. */
  createdTo?: string | null | undefined;
  /** Only people (INDIVIDUAL) or only businesses (BUSINESS). */
  customerType?: CustomerType | null | undefined;
  /** YYYY-MM-DD. */
  dateOfBirth?: string | null | undefined;
  /** One of the customer's emails, exactly (case-insensitive). */
  email?: string | null | undefined;
  /** Exactly this external id. */
  externalId?: string | null | undefined;
  /** A prefix of the first name. */
  firstName?: string | null | undefined;
  /** A prefix of the last name. */
  lastName?: string | null | undefined;
  /** A prefix of a business's legal name (case- and accent-insensitive). */
  legalName?: string | null | undefined;
  /** Each given key with exactly the given value. */
  metadata?: Record<string, string> | null | undefined;
  /** One of the customer's phone numbers, compared in E.164. */
  phoneNumber?: string | null | undefined;
  /** AAA-GG-SSSS or AAAGGSSSS; write-only: never answered, logged or kept in clear. */
  socialSecurityNumber?: string | null | undefined;
  /**
   * A business's tax id (an EIN, NN-NNNNNNN or nine digits, for a US entity); write-only: never answered, logged or
   * kept in clear. Searched as an SSN is: needs `customers:ssn_search`, audited, spends the SSN search budget.
   */
  taxId?: string | null | undefined;
};

/** Whether a customer is active or archived (docs/account-lifecycle.md). */
export type CustomerStatus =
  | 'ACTIVE'
  /** Archived: opens no account, left out of lists unless asked for. */
  | 'ARCHIVED';

/** Whether a customer is a person or an entity (docs/adr/0090). */
export type CustomerType =
  /** An entity: `Customer.business`, a tax id (never returned). */
  | 'BUSINESS'
  /** A person: names, date of birth, an SSN (never returned). */
  | 'INDIVIDUAL';

/** How a product's interest counts days: actual days over 365, over 360, or over the year's actual days. */
export type DayCount =
  | 'ACTUAL_360'
  | 'ACTUAL_365'
  | 'ACTUAL_ACTUAL';

/** RUNNING, COMPLETED or FAILED. */
export type EndOfDayStatus =
  | 'COMPLETED'
  | 'FAILED'
  | 'RUNNING';

/** What kind of entity a business customer is. */
export type EntityType =
  | 'CORPORATION'
  | 'LLC'
  | 'NONPROFIT'
  | 'PARTNERSHIP'
  | 'SOLE_PROPRIETORSHIP'
  | 'TRUST';

/** What a month's maintenance fee assessment did. */
export type FeeAssessmentOutcome =
  /** All of the fee, or what fitted within the overdraft limit, was debited. */
  | 'CHARGED'
  /** Nothing could be debited: no room within the overdraft limit, a frozen account, debits blocked. */
  | 'UNCOLLECTED'
  /** The minimum daily balance reached the product's threshold: nothing charged. */
  | 'WAIVED';

/** Whether inbound ACH debits on an account number are accepted. */
export type InboundAchDebits =
  /** An originator may debit the account with this number. */
  | 'ALLOWED'
  /** Inbound ACH debits with this number are to be returned. */
  | 'BLOCKED';

/** How often interest is posted to the account. */
export type InterestPosting =
  | 'MONTHLY'
  | 'QUARTERLY';

/** The monthly maintenance fee. */
export type MonthlyMaintenanceFeeInput = {
  /** Above 0, at most the currency's minor-unit digits. */
  amount: string;
  /** Optional: waived for a month whose lowest daily balance is at least this. */
  waivedAtMinimumDailyBalance?: string | null | undefined;
};

/** A phone number of a customer. */
export type PhoneInput = {
  /** The number, up to 32 characters: digits, optionally a leading +, spaces, dots, dashes or parentheses. */
  number: string;
  /** What kind of number, upper case with underscores, e.g. MOBILE. */
  type: string;
};

/** A product's fees. */
export type ProductFeesInput = {
  /** The monthly maintenance fee. */
  monthlyMaintenance: MonthlyMaintenanceFeeInput;
};

/** Interest terms: exactly one of `annualRate` and `tiers`. */
export type ProductInterestInput = {
  /** A decimal string, 0 to below 1, at most 6 decimals, e.g. "0.0425". */
  annualRate?: string | null | undefined;
  /** The balance interest is figured on. */
  balanceBasis: BalanceBasis;
  /** How often interest compounds. */
  compounding: Compounding;
  /** How days are counted. */
  dayCount: DayCount;
  /** How often interest is posted. */
  posting: InterestPosting;
  /** 1 to 10 tiers, strictly ascending by `minimumBalance`, the first at "0". */
  tiers?: Array<RateTierInput> | null | undefined;
};

/** A product's limits. */
export type ProductLimitsInput = {
  /** Optional: the most withdrawn per business date, above 0. */
  dailyWithdrawalTotal?: string | null | undefined;
  /** Optional: the most withdrawals per month, 1 to 1000. */
  withdrawalsPerMonth?: number | null | undefined;
};

/** A balance tier. */
export type RateTierInput = {
  /** A decimal string, 0 to below 1, at most 6 decimals. */
  annualRate: string;
  /** The tier's lowest balance in the product's currency (the first tier's is "0"). */
  minimumBalance: string;
};

/** A person's review of a document (`reviewDocument`). */
export type ReviewDocumentInput = {
  /** Required with REJECTED; null or absent with APPROVED. */
  reasonCode?: VerificationDocumentReasonCode | null | undefined;
  /** APPROVED or REJECTED. */
  status: VerificationDocumentReviewStatus;
};

/** Which TIN a recipient has. */
export type TaxIdType =
  /** A business's employer identification number. */
  | 'EIN'
  /** A person's social security number. */
  | 'SSN';

/** What a timeline entry is about. */
export type TimelineKind =
  /** An account the customer holds: opened, changed, closed, reopened, holders, overdraft limit. */
  | 'ACCOUNT'
  /** A flag set on or lifted from an account, with its reason. */
  | 'FLAG'
  /** Money in and out of an account the customer holds: each ledger entry. */
  | 'MONEY'
  /** A case note on the customer or one of its accounts. */
  | 'NOTE'
  /** The customer's profile: created, changed, archived, beneficial owners. */
  | 'PROFILE'
  /** The customer's verification: checks, results, decisions, documents. */
  | 'VERIFICATION';

/** Filters of an account's transactions; every given one must hold. The same names and rules as REST's listTransactions. */
export type TransactionFilter = {
  /** Only the transactions with this `externalId`. */
  externalId?: string | null | undefined;
  /** Only transactions made at or after this instant: ISO 8601 with a time zone, e.g. 2026-12-01T00:00:00Z. */
  from?: string | null | undefined;
  /** Only transactions whose `amount` is at most this. */
  maxAmount?: string | null | undefined;
  /** Only transactions whose `amount` is at least this, at most the currency's minor-unit decimals. */
  minAmount?: string | null | undefined;
  /** Only transactions with this status. */
  status?: TransactionStatus | null | undefined;
  /** Only transactions made before this instant (exclusive): ISO 8601 with a time zone. */
  to?: string | null | undefined;
  /** Only CREDITs or only DEBITs. */
  type?: TransactionType | null | undefined;
};

/** Where a transaction is in its life. */
export type TransactionStatus =
  /** A hold: authorised, not posted yet. A DEBIT hold already lowers the available balance. */
  | 'PENDING'
  /** Posted: part of the posted balance. Posted transactions never change; undo one with `reverseTransaction`. */
  | 'POSTED'
  /** A hold released without posting (voided, or expired): it moved nothing. */
  | 'VOIDED';

/** Which way a transaction moves money on its account. */
export type TransactionType =
  /** Money in: raises the balance. */
  | 'CREDIT'
  /** Money out: lowers the balance. */
  | 'DEBIT';

/** A transfer between two accounts of this environment. */
export type TransferInput = {
  /** How much, as a positive decimal, e.g. "100": at most the currency's minor-unit decimals. */
  amount: string;
  /** Up to 140 characters; an empty string when absent. */
  description?: string | null | undefined;
  /** Your own reference, 1 to 128 characters, unique among the environment's transfers (EXTERNAL_ID_ALREADY_EXISTS otherwise; nothing moves). Both transactions carry it. */
  externalId?: string | null | undefined;
  /** The account the money leaves. */
  fromAccountId: string;
  /** Your own key-value pairs (see `Metadata`); both transactions carry them. */
  metadata?: Record<string, string> | null | undefined;
  /** The account the money reaches: another account, in the same currency. */
  toAccountId: string;
};

/** The new name and currency of an account (both required, as in REST); the type cannot change. */
export type UpdateAccountInput = {
  /** An active ISO 4217 currency code, upper case, e.g. USD. */
  currency: string;
  /** Your own id for the account, 1 to 128 characters, unique per environment (EXTERNAL_ID_TAKEN); null clears it. */
  externalId?: string | null | undefined;
  /** Merged into the stored pairs: a value sets its key, null or an empty string removes it, keys not sent stay; null removes all. */
  metadata?: Record<string, string> | null | undefined;
  /** The colloquial name, 1 to 100 characters. */
  name: string;
};

/**
 * The contact fields of a customer that can change. Send only the fields to change (at least one); a list
 * replaces the whole list (`emails: []` clears it). An explicit null is refused with VALIDATION_FAILED rather
 * than read as "clear" or "unchanged", except on `externalId` and `metadata`, where null clears. Identity fields (names, date of birth, social security number, document
 * locator number) can never change and are therefore not part of this input.
 */
export type UpdateCustomerInput = {
  /** The new postal addresses (replace all), up to 10. */
  addresses?: Array<AddressInput> | null | undefined;
  /** A business's trading name, 1 to 200 characters; null clears it (FIELD_NOT_FOR_CUSTOMER_TYPE on a person). */
  doingBusinessAs?: string | null | undefined;
  /** The new email addresses (replace all), up to 10. */
  emails?: Array<string> | null | undefined;
  /** Your own id for the customer, 1 to 128 characters, unique per environment (EXTERNAL_ID_TAKEN); null clears it. */
  externalId?: string | null | undefined;
  /** A business's NAICS code, 2 to 6 digits; null clears it (FIELD_NOT_FOR_CUSTOMER_TYPE on a person). */
  industry?: string | null | undefined;
  /** Merged into the stored pairs: a value sets its key, null or an empty string removes it, keys not sent stay; null removes all. */
  metadata?: Record<string, string> | null | undefined;
  /** The new phone numbers (replace all), up to 10. */
  phoneNumbers?: Array<PhoneInput> | null | undefined;
  /** The new preferred name, 1 to 100 characters (a person's; FIELD_NOT_FOR_CUSTOMER_TYPE on a business). */
  preferredName?: string | null | undefined;
  /** A business's website, an http or https URL; null clears it (FIELD_NOT_FOR_CUSTOMER_TYPE on a person). */
  website?: string | null | undefined;
};

/** What a check covers. */
export type VerificationCheckKind =
  /** A business: legal name, tax id, address, formation. */
  | 'BUSINESS'
  /** A person: name, date of birth, address, SSN. */
  | 'IDENTITY';

/** A provider's answer to a check. */
export type VerificationCheckOutcome =
  | 'NEEDS_REVIEW'
  | 'REJECTED'
  | 'VERIFIED';

/** Whether a check's result has arrived. */
export type VerificationCheckStatus =
  | 'COMPLETED'
  | 'PENDING';

/** A person's verification decision (`decideVerification`). */
export type VerificationDecisionInput = {
  /** VERIFIED or REJECTED. */
  outcome: VerificationDecisionOutcome;
  /** Why: 1 to 500 characters, kept and answered (never personal data). */
  reason: string;
};

/** A person's decision. */
export type VerificationDecisionOutcome =
  | 'REJECTED'
  | 'VERIFIED';

/** Why a person rejected a document. */
export type VerificationDocumentReasonCode =
  | 'EXPIRED'
  | 'ILLEGIBLE'
  | 'NAME_MISMATCH'
  | 'OTHER';

/** A review's outcome (`reviewDocument`). */
export type VerificationDocumentReviewStatus =
  | 'APPROVED'
  | 'REJECTED';

/** Where a document's review stands. */
export type VerificationDocumentStatus =
  /** A person approved it. */
  | 'APPROVED'
  /** Uploaded, awaiting a person's review. */
  | 'RECEIVED'
  /** A person rejected it, with a reason code. */
  | 'REJECTED';

/** What a verification document is evidence of. */
export type VerificationDocumentType =
  /** A business's certificate (or articles) of formation: an APPROVED one meets `formation_document`. */
  | 'CERTIFICATE_OF_FORMATION'
  /** The IRS letter assigning a business's EIN. */
  | 'EIN_LETTER'
  /** A person's government-issued identification (a passport, a driver's license). */
  | 'ID_DOCUMENT'
  /** Anything else a reviewer asked for. */
  | 'OTHER'
  /** A utility bill, a bank statement: where the customer lives. */
  | 'PROOF_OF_ADDRESS';

/** A customer's verification status (docs/verification.md, its table of transitions). */
export type VerificationStatus =
  /** A person has to look: a check said so, or a business's owner was rejected. */
  | 'NEEDS_REVIEW'
  /** A check is running at the provider. */
  | 'PENDING'
  /** A check failed, or a person rejected. */
  | 'REJECTED'
  /** Nothing asked yet. */
  | 'UNVERIFIED'
  /** A check passed, or a person verified. */
  | 'VERIFIED';

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { name: string, scopes: Array<string>, environments: Array<string> } };

export type NoteItemFragment = { id: string, noteId: string, text: string, createdAt: string, author: { id: string, name: string } };

export type CustomerNotesQueryVariables = Exact<{
  customerId: string;
  first: number;
}>;


export type CustomerNotesQuery = { customer: { id: string, notes: { nodes: Array<{ id: string, noteId: string, text: string, createdAt: string, author: { id: string, name: string } }>, pageInfo: { hasNextPage: boolean } } | null } | null };

export type AccountNotesQueryVariables = Exact<{
  accountId: string;
  first: number;
}>;


export type AccountNotesQuery = { account: { id: string, notes: { nodes: Array<{ id: string, noteId: string, text: string, createdAt: string, author: { id: string, name: string } }>, pageInfo: { hasNextPage: boolean } } | null } | null };

export type AddCustomerNoteMutationVariables = Exact<{
  customerId: string;
  text: string;
  idempotencyKey?: string | null | undefined;
}>;


export type AddCustomerNoteMutation = { addCustomerNote: { id: string, noteId: string, text: string, createdAt: string, author: { id: string, name: string } } };

export type AddAccountNoteMutationVariables = Exact<{
  accountId: string;
  text: string;
  idempotencyKey?: string | null | undefined;
}>;


export type AddAccountNoteMutation = { addAccountNote: { id: string, noteId: string, text: string, createdAt: string, author: { id: string, name: string } } };

export type CustomerRecentEventsQueryVariables = Exact<{
  customerId: string;
}>;


export type CustomerRecentEventsQuery = { customer: { id: string, recentEvents: Array<{ eventId: string, sequence: number, type: string, occurredAt: string }> | null } | null };

export type AccountRecentEventsQueryVariables = Exact<{
  accountId: string;
}>;


export type AccountRecentEventsQuery = { account: { id: string, recentEvents: Array<{ eventId: string, sequence: number, type: string, occurredAt: string }> | null } | null };

export type RecentEventRowFragment = { eventId: string, sequence: number, type: string, occurredAt: string };

export type TimelineEntryItemFragment = { id: string, at: string, kind: TimelineKind, operation: string, actorId: string | null, actorName: string | null, recordType: string, recordId: string, accountId: string | null, changedFields: Array<string>, flag: AccountFlag | null, reason: string | null, text: string | null, amount: string | null, currency: string | null, direction: string | null, status: string | null };

export type CustomerTimelineQueryVariables = Exact<{
  customerId: string;
  first: number;
  after?: string | null | undefined;
  kinds?: Array<TimelineKind> | TimelineKind | null | undefined;
}>;


export type CustomerTimelineQuery = { customer: { id: string, timeline: { omittedKinds: Array<TimelineKind>, nodes: Array<{ id: string, at: string, kind: TimelineKind, operation: string, actorId: string | null, actorName: string | null, recordType: string, recordId: string, accountId: string | null, changedFields: Array<string>, flag: AccountFlag | null, reason: string | null, text: string | null, amount: string | null, currency: string | null, direction: string | null, status: string | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } | null } | null };

export type AccountNumberLast4QueryVariables = Exact<{
  accountId: string;
}>;


export type AccountNumberLast4Query = { account: { id: string, accountNumberLast4: string | null } | null };

export type AccountNumbersQueryVariables = Exact<{
  accountId: string;
}>;


export type AccountNumbersQuery = { account: { id: string, accountNumbers: Array<{ id: string, accountNumber: string, last4: string, routingNumber: string, status: AccountNumberStatus, inboundAchDebits: InboundAchDebits, createdAt: string }> | null } | null };

export type AddAccountNumberMutationVariables = Exact<{
  accountId: string;
  inboundAchDebits?: InboundAchDebits | null | undefined;
}>;


export type AddAccountNumberMutation = { addAccountNumber: { id: string, last4: string, status: AccountNumberStatus, inboundAchDebits: InboundAchDebits } };

export type UpdateAccountNumberMutationVariables = Exact<{
  accountId: string;
  accountNumberId: string;
  status?: AccountNumberStatus | null | undefined;
  inboundAchDebits?: InboundAchDebits | null | undefined;
}>;


export type UpdateAccountNumberMutation = { updateAccountNumber: { id: string, last4: string, status: AccountNumberStatus, inboundAchDebits: InboundAchDebits } };

export type AccountSummaryQueryVariables = Exact<{
  accountId: string;
  withHolders: boolean;
}>;


export type AccountSummaryQuery = { account: { id: string, accountId: string, name: string, type: string, currency: string, status: AccountStatus, closedAt: string | null, closeReason: AccountCloseReason | null, flags: Array<string>, overdraftLimit: string, version: number, metadata: Record<string, string> | null, productCode: string | null, flagDetails: Array<{ flag: AccountFlag, reason: string | null, setAt: string | null, setBy: string | null, setByName: string | null, until: string | null }>, balance: { posted: string, pending: string, available: string }, relationships?: Array<{ customerId: string, role: AccountRole, customer: { id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null } | null }> } | null };

export type UpdateAccountMetadataMutationVariables = Exact<{
  accountId: string;
  input: UpdateAccountInput;
  expectedVersion?: number | null | undefined;
}>;


export type UpdateAccountMetadataMutation = { updateAccount: { id: string, version: number, name: string, currency: string, metadata: Record<string, string> | null } };

export type DeleteAccountMutationVariables = Exact<{
  accountId: string;
  expectedVersion?: number | null | undefined;
}>;


export type DeleteAccountMutation = { deleteAccount: string };

export type CloseAccountMutationVariables = Exact<{
  accountId: string;
  reason: AccountCloseReason;
  disbursementAccountId?: string | null | undefined;
}>;


export type CloseAccountMutation = { closeAccount: { id: string, status: AccountStatus, closedAt: string | null, closeReason: AccountCloseReason | null } };

export type ReopenAccountMutationVariables = Exact<{
  accountId: string;
}>;


export type ReopenAccountMutation = { reopenAccount: { id: string, status: AccountStatus, closedAt: string | null, closeReason: AccountCloseReason | null } };

export type DisbursementTargetQueryVariables = Exact<{
  accountId: string;
}>;


export type DisbursementTargetQuery = { account: { id: string, accountId: string, name: string, currency: string, status: AccountStatus } | null };

export type AccountBalanceHistoryQueryVariables = Exact<{
  accountId: string;
  from: string;
  to: string;
}>;


export type AccountBalanceHistoryQuery = { account: { id: string, balanceHistory: Array<{ at: string, posted: string }> } | null };

export type AddAccountHolderMutationVariables = Exact<{
  accountId: string;
  customerId: string;
  role?: AccountRole | null | undefined;
}>;


export type AddAccountHolderMutation = { addAccountCustomer: { id: string, customerIds: Array<string> } };

export type SetAccountRelationshipMutationVariables = Exact<{
  accountId: string;
  customerId: string;
  role: AccountRole;
  expectedVersion?: number | null | undefined;
}>;


export type SetAccountRelationshipMutation = { setAccountRelationship: { id: string, version: number, relationships: Array<{ customerId: string, role: AccountRole }> } };

export type RemoveAccountHolderMutationVariables = Exact<{
  accountId: string;
  customerId: string;
}>;


export type RemoveAccountHolderMutation = { removeAccountCustomer: { id: string, customerIds: Array<string> } };

export type AccountTransactionsQueryVariables = Exact<{
  accountId: string;
  after?: string | null | undefined;
  filter?: TransactionFilter | null | undefined;
}>;


export type AccountTransactionsQuery = { account: { id: string, transactions: { nodes: Array<{ transactionId: string, type: TransactionType, status: TransactionStatus, amount: string, currency: string, description: string, balanceAfter: string | null, createdAt: string, transferId: string | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } } | null };

export type SetAccountFlagMutationVariables = Exact<{
  accountId: string;
  flag: AccountFlag;
  reason?: string | null | undefined;
  until?: string | null | undefined;
}>;


export type SetAccountFlagMutation = { setAccountFlag: { id: string, flags: Array<string>, flagDetails: Array<{ flag: AccountFlag, reason: string | null, setAt: string | null, setBy: string | null, setByName: string | null, until: string | null }> } };

export type ClearAccountFlagMutationVariables = Exact<{
  accountId: string;
  flag: AccountFlag;
  reason?: string | null | undefined;
}>;


export type ClearAccountFlagMutation = { clearAccountFlag: { id: string, flags: Array<string>, flagDetails: Array<{ flag: AccountFlag, reason: string | null, setAt: string | null, setBy: string | null, setByName: string | null, until: string | null }> } };

export type TransferTargetQueryVariables = Exact<{
  accountId: string;
  withHolders: boolean;
}>;


export type TransferTargetQuery = { account: { id: string, name: string, currency: string, customers?: Array<{ id: string, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null }> } | null };

export type TransferMoneyMutationVariables = Exact<{
  input: TransferInput;
  idempotencyKey?: string | null | undefined;
}>;


export type TransferMoneyMutation = { transfer: { transferId: string, amount: string, currency: string } };

export type PostHoldMutationVariables = Exact<{
  accountId: string;
  transactionId: string;
  idempotencyKey?: string | null | undefined;
}>;


export type PostHoldMutation = { postHold: { transactionId: string, status: TransactionStatus } };

export type VoidHoldMutationVariables = Exact<{
  accountId: string;
  transactionId: string;
  idempotencyKey?: string | null | undefined;
}>;


export type VoidHoldMutation = { voidHold: { transactionId: string, status: TransactionStatus } };

export type SetOverdraftLimitMutationVariables = Exact<{
  accountId: string;
  overdraftLimit: string;
}>;


export type SetOverdraftLimitMutation = { setOverdraftLimit: { id: string, overdraftLimit: string, balance: { posted: string, pending: string, available: string } } };

export type LiveAccountUpdatedSubscriptionVariables = Exact<{
  accountId: string;
}>;


export type LiveAccountUpdatedSubscription = { accountUpdated: { id: string } };

export type LiveTransactionPostedSubscriptionVariables = Exact<{
  accountId: string;
}>;


export type LiveTransactionPostedSubscription = { transactionPosted: { transactionId: string } };

export type AccountProductFiguresQueryVariables = Exact<{
  accountId: string;
  withProduct: boolean;
  feesAfter?: string | null | undefined;
}>;


export type AccountProductFiguresQuery = { account: { id: string, productCode: string | null, product?: { id: string, code: string, name: string, fees: { monthlyMaintenance: { amount: string } } | null } | null, interest: { productCode: string, annualRate: string, annualPercentageYield: string, accruedUnpaid: string, lastAccrualDate: string | null, lastPostingDate: string | null, paidYearToDate: string } | null, fees: { nodes: Array<{ month: string, minimumDailyBalance: string, fee: string, waivedAtMinimumDailyBalance: string | null, outcome: FeeAssessmentOutcome, charged: string, uncollected: string }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } | null } | null };

export type AccountListQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  filter?: AccountFilter | null | undefined;
}>;


export type AccountListQuery = { accounts: { nodes: Array<{ id: string, accountId: string, name: string, type: string, currency: string, status: AccountStatus, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type AuditTrailQueryVariables = Exact<{
  after?: string | null | undefined;
  resourceId?: string | null | undefined;
  principalId?: string | null | undefined;
  operation?: string | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
}>;


export type AuditTrailQuery = { auditEvents: { nodes: Array<{ eventId: string, occurredAt: string, principalId: string, operation: string, resourceType: string, resourceId: string, changedFields: Array<string> }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type AddBeneficialOwnerMutationVariables = Exact<{
  businessCustomerId: string;
  input: AddBeneficialOwnerInput;
}>;


export type AddBeneficialOwnerMutation = { addBeneficialOwner: { customerId: string } };

export type RemoveBeneficialOwnerMutationVariables = Exact<{
  businessCustomerId: string;
  ownerCustomerId: string;
}>;


export type RemoveBeneficialOwnerMutation = { removeBeneficialOwner: string };

export type ClockPageQueryVariables = Exact<{ [key: string]: never; }>;


export type ClockPageQuery = { clock: { now: string, businessDate: string, timeZone: string, adjustable: boolean }, endOfDay: Array<{ businessDate: string, status: EndOfDayStatus, attempts: number, startedAt: string, finishedAt: string | null, steps: Array<{ step: string, status: EndOfDayStatus, records: number, attempts: number, error: string | null }> }> };

export type AdvanceClockMutationVariables = Exact<{
  days: number;
}>;


export type AdvanceClockMutation = { advanceClock: { from: string, to: string, businessDaysRun: number } };

export type CustomerDetailsQueryVariables = Exact<{
  customerId: string;
  withAccounts: boolean;
}>;


export type CustomerDetailsQuery = { customer: { id: string, customerId: string, customerType: CustomerType, preferredName: string | null, firstName: string | null, middleName: string | null, lastName: string | null, dateOfBirth: string | null, status: CustomerStatus, archivedAt: string | null, archiveReason: CustomerArchiveReason | null, version: number, metadata: Record<string, string> | null, emails: Array<string>, business: { legalName: string, doingBusinessAs: string | null, entityType: EntityType, formationDate: string, formationState: string | null, formationCountry: string, industry: string | null, website: string | null } | null, phoneNumbers: Array<{ type: string, number: string }>, addresses: Array<{ type: string, street: string, city: string, state: string, zip: string }>, beneficialOwners: Array<{ customerId: string, prongs: Array<BeneficialOwnerProng>, ownershipPercentage: string | null, title: string | null, addedAt: string, customer: { id: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null } | null }> | null, beneficialOwnerOf: Array<{ businessCustomerId: string, prongs: Array<BeneficialOwnerProng>, ownershipPercentage: string | null, title: string | null, business: { id: string, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null } | null }>, accounts?: Array<{ id: string, accountId: string, name: string, type: string, currency: string, amount: string, flags: Array<string>, status: AccountStatus }> } | null };

export type UpdateCustomerContactMutationVariables = Exact<{
  customerId: string;
  input: UpdateCustomerInput;
  expectedVersion?: number | null | undefined;
}>;


export type UpdateCustomerContactMutation = { updateCustomer: { id: string, version: number, preferredName: string | null, emails: Array<string>, phoneNumbers: Array<{ type: string, number: string }>, addresses: Array<{ type: string, street: string, city: string, state: string, zip: string }> } };

export type UpdateCustomerMetadataMutationVariables = Exact<{
  customerId: string;
  metadata: Record<string, string>;
  expectedVersion?: number | null | undefined;
}>;


export type UpdateCustomerMetadataMutation = { updateCustomer: { id: string, version: number, metadata: Record<string, string> | null } };

export type DeleteCustomerMutationVariables = Exact<{
  customerId: string;
  expectedVersion?: number | null | undefined;
}>;


export type DeleteCustomerMutation = { deleteCustomer: string };

export type ArchiveCustomerMutationVariables = Exact<{
  customerId: string;
  reason: CustomerArchiveReason;
}>;


export type ArchiveCustomerMutation = { archiveCustomer: { id: string, status: CustomerStatus, archivedAt: string | null, archiveReason: CustomerArchiveReason | null } };

export type CustomerListItemFragment = { id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, dateOfBirth: string | null, business: { legalName: string, doingBusinessAs: string | null } | null };

export type FindCustomersQueryVariables = Exact<{
  filter?: CustomerFilter | null | undefined;
  after?: string | null | undefined;
}>;


export type FindCustomersQuery = { customers: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, dateOfBirth: string | null, business: { legalName: string, doingBusinessAs: string | null } | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type SearchCustomersBySsnQueryVariables = Exact<{
  input: CustomerSearchInput;
}>;


export type SearchCustomersBySsnQuery = { searchCustomers: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, dateOfBirth: string | null, business: { legalName: string, doingBusinessAs: string | null } | null }> } };

export type EventListQueryVariables = Exact<{
  after?: number | null | undefined;
  types?: Array<string> | string | null | undefined;
}>;


export type EventListQuery = { events: { nextAfter: number, events: Array<{ eventId: string, sequence: number, type: string, occurredAt: string, resourceType: string, resourceId: string, changedFields: Array<string> }> } };

export type LiveEventsSubscriptionVariables = Exact<{
  types?: Array<string> | string | null | undefined;
}>;


export type LiveEventsSubscription = { events: { eventId: string, sequence: number, type: string, occurredAt: string, resourceType: string, resourceId: string, changedFields: Array<string> } };

export type CreateBusinessCustomerMutationVariables = Exact<{
  input: CreateBusinessCustomerInput;
  idempotencyKey?: string | null | undefined;
}>;


export type CreateBusinessCustomerMutation = { createBusinessCustomer: { id: string, customerId: string } };

export type CreateCustomerMutationVariables = Exact<{
  input: CreateCustomerInput;
  idempotencyKey?: string | null | undefined;
}>;


export type CreateCustomerMutation = { createCustomer: { id: string, customerId: string } };

export type ProductPageQueryVariables = Exact<{
  code: string;
}>;


export type ProductPageQuery = { clock: { businessDate: string }, product: { createdAt: string, id: string, code: string, name: string, accountType: string, currency: string, minimumOpeningDeposit: string | null, minimumBalance: string | null, interest: { dayCount: DayCount, balanceBasis: BalanceBasis, compounding: Compounding, posting: InterestPosting, rate: { effectiveFrom: string, annualRate: string | null, tiers: Array<{ minimumBalance: string, annualRate: string }> | null } | null, rateHistory: Array<{ effectiveFrom: string, annualRate: string | null, tiers: Array<{ minimumBalance: string, annualRate: string }> | null }> } | null, fees: { monthlyMaintenance: { amount: string, waivedAtMinimumDailyBalance: string | null } } | null, limits: { dailyWithdrawalTotal: string | null, withdrawalsPerMonth: number | null } | null } };

export type ChangeProductRateMutationVariables = Exact<{
  code: string;
  input: ChangeProductRateInput;
}>;


export type ChangeProductRateMutation = { changeProductRate: { id: string, code: string } };

export type ProductTermsFragment = { id: string, code: string, name: string, accountType: string, currency: string, minimumOpeningDeposit: string | null, minimumBalance: string | null, interest: { dayCount: DayCount, balanceBasis: BalanceBasis, compounding: Compounding, posting: InterestPosting, rate: { effectiveFrom: string, annualRate: string | null, tiers: Array<{ minimumBalance: string, annualRate: string }> | null } | null, rateHistory: Array<{ effectiveFrom: string, annualRate: string | null, tiers: Array<{ minimumBalance: string, annualRate: string }> | null }> } | null, fees: { monthlyMaintenance: { amount: string, waivedAtMinimumDailyBalance: string | null } } | null, limits: { dailyWithdrawalTotal: string | null, withdrawalsPerMonth: number | null } | null };

export type ProductsPageQueryVariables = Exact<{
  after?: string | null | undefined;
}>;


export type ProductsPageQuery = { products: { nodes: Array<{ id: string, code: string, name: string, accountType: string, currency: string, minimumOpeningDeposit: string | null, minimumBalance: string | null, interest: { dayCount: DayCount, balanceBasis: BalanceBasis, compounding: Compounding, posting: InterestPosting, rate: { effectiveFrom: string, annualRate: string | null, tiers: Array<{ minimumBalance: string, annualRate: string }> | null } | null, rateHistory: Array<{ effectiveFrom: string, annualRate: string | null, tiers: Array<{ minimumBalance: string, annualRate: string }> | null }> } | null, fees: { monthlyMaintenance: { amount: string, waivedAtMinimumDailyBalance: string | null } } | null, limits: { dailyWithdrawalTotal: string | null, withdrawalsPerMonth: number | null } | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CreateProductMutationVariables = Exact<{
  input: CreateProductInput;
  idempotencyKey?: string | null | undefined;
}>;


export type CreateProductMutation = { createProduct: { id: string, code: string } };

export type ReviewQueueQueryVariables = Exact<{
  after?: string | null | undefined;
}>;


export type ReviewQueueQuery = { customers: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type TaxFormYearsQueryVariables = Exact<{ [key: string]: never; }>;


export type TaxFormYearsQuery = { clock: { businessDate: string } };

export type CustomerTaxFormQueryVariables = Exact<{
  customerId: string;
  year: number;
}>;


export type CustomerTaxFormQuery = { customer: { id: string, taxForm1099Int: { taxYear: number, final: boolean, reportable: boolean, reportingThreshold: string, currency: string, box1InterestIncome: string, recipient: { tinType: TaxIdType, tinLastFour: string }, accounts: Array<{ accountId: string, accountNumberLast4: string | null, interestPaid: string }>, otherCurrencyAccounts: Array<{ accountId: string, currency: string, interestPaid: string }> } | null } | null };

export type CustomerVerificationQueryVariables = Exact<{
  customerId: string;
}>;


export type CustomerVerificationQuery = { customer: { id: string, beneficialOwners: Array<{ customerId: string, prongs: Array<BeneficialOwnerProng>, ownershipPercentage: string | null, customer: { id: string, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null, verification: { customerId: string, status: VerificationStatus } | null } | null }> | null, verification: { customerId: string, status: VerificationStatus, requirements: { currentlyDue: Array<string>, pendingVerification: Array<string>, errors: Array<{ requirement: string, code: string, reason: string }> }, checks: Array<{ checkId: string, kind: VerificationCheckKind, provider: string, status: VerificationCheckStatus, outcome: VerificationCheckOutcome | null, reasonCodes: Array<string>, requestedAt: string, completedAt: string | null }>, documents: Array<{ documentId: string, type: VerificationDocumentType, mediaType: string, sizeBytes: number, status: VerificationDocumentStatus, reasonCode: VerificationDocumentReasonCode | null, uploadedBy: string, uploadedAt: string, reviewedBy: string | null, reviewedAt: string | null }>, decision: { outcome: VerificationDecisionOutcome, reason: string, decidedBy: string, decidedAt: string } | null } | null } | null };

export type RequestVerificationCheckMutationVariables = Exact<{
  customerId: string;
}>;


export type RequestVerificationCheckMutation = { requestVerificationCheck: { checkId: string, status: VerificationCheckStatus } };

export type DecideVerificationMutationVariables = Exact<{
  customerId: string;
  input: VerificationDecisionInput;
}>;


export type DecideVerificationMutation = { decideVerification: { customerId: string, status: VerificationStatus } };

export type ReviewDocumentMutationVariables = Exact<{
  customerId: string;
  documentId: string;
  input: ReviewDocumentInput;
}>;


export type ReviewDocumentMutation = { reviewDocument: { documentId: string, status: VerificationDocumentStatus, reasonCode: VerificationDocumentReasonCode | null } };

export type WebhookEndpointListQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookEndpointListQuery = { webhookEndpoints: Array<{ endpointId: string, url: string, eventTypes: Array<string>, enabled: boolean, disabledReason: string | null, failingSince: string | null, createdAt: string }> };

export type EnableWebhookEndpointMutationVariables = Exact<{
  endpointId: string;
}>;


export type EnableWebhookEndpointMutation = { enableWebhookEndpoint: { endpointId: string, enabled: boolean, disabledReason: string | null } };

export type DisableWebhookEndpointMutationVariables = Exact<{
  endpointId: string;
}>;


export type DisableWebhookEndpointMutation = { disableWebhookEndpoint: { endpointId: string, enabled: boolean, disabledReason: string | null } };

export type RotateWebhookSecretMutationVariables = Exact<{
  endpointId: string;
}>;


export type RotateWebhookSecretMutation = { rotateWebhookSecret: { secret: string, endpoint: { endpointId: string, url: string } } };

export type WebhookEndpointDeliveriesQueryVariables = Exact<{
  endpointId: string;
}>;


export type WebhookEndpointDeliveriesQuery = { webhookEndpoint: { endpointId: string, url: string, enabled: boolean, attempts: Array<{ attemptId: string, eventId: string, attemptedAt: string, statusCode: number | null, latencyMs: number, succeeded: boolean, error: string | null }> } | null };

export type RedeliverWebhookMutationVariables = Exact<{
  endpointId: string;
  eventId: string;
}>;


export type RedeliverWebhookMutation = { redeliverWebhook: { endpointId: string, eventId: string } };

export type CustomerHitFragment = { id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null };

export type AccountHitFragment = { id: string, accountId: string, name: string, type: string, currency: string, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } };

export type RecordSearchQueryVariables = Exact<{
  first: number;
  byId: boolean;
  id: string;
  byWord: boolean;
  byWordInAccounts: boolean;
  word?: string | null | undefined;
  byFullName: boolean;
  firstName?: string | null | undefined;
  lastName?: string | null | undefined;
  legalName?: string | null | undefined;
  byEmail: boolean;
  email?: string | null | undefined;
  byPhone: boolean;
  phoneNumber?: string | null | undefined;
  byHolderWord: boolean;
  byHolderFullName: boolean;
  byLast4: boolean;
  accountNumberLast4?: string | null | undefined;
}>;


export type RecordSearchQuery = { node?:
    | { id: string, accountId: string, name: string, type: string, currency: string, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } }
    | { id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null }
   | null, lastNames?: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null }> }, firstNames?: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null }> }, legalNames?: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null }> }, customerExternalIds?: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null }> }, accountExternalIds?: { nodes: Array<{ id: string, accountId: string, name: string, type: string, currency: string, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } }> }, accountLast4s?: { nodes: Array<{ id: string, accountId: string, name: string, type: string, currency: string, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } }> }, fullNames?: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null }> }, businessNames?: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null }> }, emails?: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null }> }, phones?: { nodes: Array<{ id: string, customerId: string, customerType: CustomerType, firstName: string | null, middleName: string | null, lastName: string | null, emails: Array<string>, business: { legalName: string } | null }> }, holderLastNames?: { nodes: Array<{ id: string, customerId: string, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null, accounts: Array<{ id: string, accountId: string, name: string, type: string, currency: string, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } }> }> }, holderLegalNames?: { nodes: Array<{ id: string, customerId: string, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null, accounts: Array<{ id: string, accountId: string, name: string, type: string, currency: string, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } }> }> }, holderFullNames?: { nodes: Array<{ id: string, customerId: string, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null, accounts: Array<{ id: string, accountId: string, name: string, type: string, currency: string, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } }> }> }, holderBusinessNames?: { nodes: Array<{ id: string, customerId: string, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null, accounts: Array<{ id: string, accountId: string, name: string, type: string, currency: string, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } }> }> } };

export type HolderHitFragment = { id: string, customerId: string, firstName: string | null, middleName: string | null, lastName: string | null, business: { legalName: string } | null, accounts: Array<{ id: string, accountId: string, name: string, type: string, currency: string, flags: Array<string>, accountNumberLast4: string | null, balance: { posted: string } }> };

export const NoteItemFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NoteItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Note"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"noteId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<NoteItemFragment, unknown>;
export const RecentEventRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RecentEventRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}}]}}]} as unknown as DocumentNode<RecentEventRowFragment, unknown>;
export const TimelineEntryItemFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TimelineEntryItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TimelineEntry"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"actorId"}},{"kind":"Field","name":{"kind":"Name","value":"actorName"}},{"kind":"Field","name":{"kind":"Name","value":"recordType"}},{"kind":"Field","name":{"kind":"Name","value":"recordId"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"changedFields"}},{"kind":"Field","name":{"kind":"Name","value":"flag"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"direction"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]} as unknown as DocumentNode<TimelineEntryItemFragment, unknown>;
export const CustomerListItemFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CustomerListItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Customer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"customerType"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}},{"kind":"Field","name":{"kind":"Name","value":"doingBusinessAs"}}]}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"dateOfBirth"}}]}}]} as unknown as DocumentNode<CustomerListItemFragment, unknown>;
export const ProductTermsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProductTerms"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"interest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dayCount"}},{"kind":"Field","name":{"kind":"Name","value":"balanceBasis"}},{"kind":"Field","name":{"kind":"Name","value":"compounding"}},{"kind":"Field","name":{"kind":"Name","value":"posting"}},{"kind":"Field","name":{"kind":"Name","value":"rate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectiveFrom"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}},{"kind":"Field","name":{"kind":"Name","value":"tiers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minimumBalance"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"rateHistory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectiveFrom"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}},{"kind":"Field","name":{"kind":"Name","value":"tiers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minimumBalance"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"fees"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"monthlyMaintenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"waivedAtMinimumDailyBalance"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"minimumOpeningDeposit"}},{"kind":"Field","name":{"kind":"Name","value":"minimumBalance"}},{"kind":"Field","name":{"kind":"Name","value":"limits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dailyWithdrawalTotal"}},{"kind":"Field","name":{"kind":"Name","value":"withdrawalsPerMonth"}}]}}]}}]} as unknown as DocumentNode<ProductTermsFragment, unknown>;
export const CustomerHitFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CustomerHit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Customer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"customerType"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"emails"}}]}}]} as unknown as DocumentNode<CustomerHitFragment, unknown>;
export const AccountHitFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AccountHit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Account"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"flags"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumberLast4"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"posted"}}]}}]}}]} as unknown as DocumentNode<AccountHitFragment, unknown>;
export const HolderHitFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HolderHit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Customer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AccountHit"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AccountHit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Account"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"flags"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumberLast4"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"posted"}}]}}]}}]} as unknown as DocumentNode<HolderHitFragment, unknown>;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"environments"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const CustomerNotesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CustomerNotes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"notes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NoteItem"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NoteItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Note"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"noteId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CustomerNotesQuery, CustomerNotesQueryVariables>;
export const AccountNotesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountNotes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"notes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NoteItem"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NoteItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Note"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"noteId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<AccountNotesQuery, AccountNotesQueryVariables>;
export const AddCustomerNoteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddCustomerNote"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addCustomerNote"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NoteItem"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NoteItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Note"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"noteId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<AddCustomerNoteMutation, AddCustomerNoteMutationVariables>;
export const AddAccountNoteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddAccountNote"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addAccountNote"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"NoteItem"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"NoteItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Note"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"noteId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<AddAccountNoteMutation, AddAccountNoteMutationVariables>;
export const CustomerRecentEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CustomerRecentEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"recentEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RecentEventRow"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RecentEventRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}}]}}]} as unknown as DocumentNode<CustomerRecentEventsQuery, CustomerRecentEventsQueryVariables>;
export const AccountRecentEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountRecentEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"recentEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RecentEventRow"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RecentEventRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}}]}}]} as unknown as DocumentNode<AccountRecentEventsQuery, AccountRecentEventsQueryVariables>;
export const CustomerTimelineDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CustomerTimeline"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kinds"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TimelineKind"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"timeline"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"kinds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kinds"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TimelineEntryItem"}}]}},{"kind":"Field","name":{"kind":"Name","value":"omittedKinds"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TimelineEntryItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TimelineEntry"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"actorId"}},{"kind":"Field","name":{"kind":"Name","value":"actorName"}},{"kind":"Field","name":{"kind":"Name","value":"recordType"}},{"kind":"Field","name":{"kind":"Name","value":"recordId"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"changedFields"}},{"kind":"Field","name":{"kind":"Name","value":"flag"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"direction"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]} as unknown as DocumentNode<CustomerTimelineQuery, CustomerTimelineQueryVariables>;
export const AccountNumberLast4Document = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountNumberLast4"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumberLast4"}}]}}]}}]} as unknown as DocumentNode<AccountNumberLast4Query, AccountNumberLast4QueryVariables>;
export const AccountNumbersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountNumbers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumbers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumber"}},{"kind":"Field","name":{"kind":"Name","value":"last4"}},{"kind":"Field","name":{"kind":"Name","value":"routingNumber"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"inboundAchDebits"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<AccountNumbersQuery, AccountNumbersQueryVariables>;
export const AddAccountNumberDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddAccountNumber"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"inboundAchDebits"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"InboundAchDebits"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addAccountNumber"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"inboundAchDebits"},"value":{"kind":"Variable","name":{"kind":"Name","value":"inboundAchDebits"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"last4"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"inboundAchDebits"}}]}}]}}]} as unknown as DocumentNode<AddAccountNumberMutation, AddAccountNumberMutationVariables>;
export const UpdateAccountNumberDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateAccountNumber"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountNumberId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"AccountNumberStatus"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"inboundAchDebits"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"InboundAchDebits"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateAccountNumber"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"accountNumberId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountNumberId"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}},{"kind":"Argument","name":{"kind":"Name","value":"inboundAchDebits"},"value":{"kind":"Variable","name":{"kind":"Name","value":"inboundAchDebits"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"last4"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"inboundAchDebits"}}]}}]}}]} as unknown as DocumentNode<UpdateAccountNumberMutation, UpdateAccountNumberMutationVariables>;
export const AccountSummaryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountSummary"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"withHolders"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"closedAt"}},{"kind":"Field","name":{"kind":"Name","value":"closeReason"}},{"kind":"Field","name":{"kind":"Name","value":"flags"}},{"kind":"Field","name":{"kind":"Name","value":"flagDetails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"flag"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"setAt"}},{"kind":"Field","name":{"kind":"Name","value":"setBy"}},{"kind":"Field","name":{"kind":"Name","value":"setByName"}},{"kind":"Field","name":{"kind":"Name","value":"until"}}]}},{"kind":"Field","name":{"kind":"Name","value":"overdraftLimit"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"productCode"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"posted"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}},{"kind":"Field","name":{"kind":"Name","value":"available"}}]}},{"kind":"Field","name":{"kind":"Name","value":"relationships"},"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"withHolders"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"customer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"customerType"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AccountSummaryQuery, AccountSummaryQueryVariables>;
export const UpdateAccountMetadataDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateAccountMetadata"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateAccountInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateAccount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]}}]} as unknown as DocumentNode<UpdateAccountMetadataMutation, UpdateAccountMetadataMutationVariables>;
export const DeleteAccountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteAccount"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteAccount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}]}]}}]} as unknown as DocumentNode<DeleteAccountMutation, DeleteAccountMutationVariables>;
export const CloseAccountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CloseAccount"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reason"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AccountCloseReason"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"disbursementAccountId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"closeAccount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"reason"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reason"}}},{"kind":"Argument","name":{"kind":"Name","value":"disbursementAccountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"disbursementAccountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"closedAt"}},{"kind":"Field","name":{"kind":"Name","value":"closeReason"}}]}}]}}]} as unknown as DocumentNode<CloseAccountMutation, CloseAccountMutationVariables>;
export const ReopenAccountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReopenAccount"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reopenAccount"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"closedAt"}},{"kind":"Field","name":{"kind":"Name","value":"closeReason"}}]}}]}}]} as unknown as DocumentNode<ReopenAccountMutation, ReopenAccountMutationVariables>;
export const DisbursementTargetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DisbursementTarget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<DisbursementTargetQuery, DisbursementTargetQueryVariables>;
export const AccountBalanceHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountBalanceHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"balanceHistory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"interval"},"value":{"kind":"EnumValue","value":"DAY"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"posted"}}]}}]}}]}}]} as unknown as DocumentNode<AccountBalanceHistoryQuery, AccountBalanceHistoryQueryVariables>;
export const AddAccountHolderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddAccountHolder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"role"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"AccountRole"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addAccountCustomer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"role"},"value":{"kind":"Variable","name":{"kind":"Name","value":"role"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerIds"}}]}}]}}]} as unknown as DocumentNode<AddAccountHolderMutation, AddAccountHolderMutationVariables>;
export const SetAccountRelationshipDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetAccountRelationship"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"role"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AccountRole"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setAccountRelationship"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"role"},"value":{"kind":"Variable","name":{"kind":"Name","value":"role"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"relationships"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}}]}}]}}]} as unknown as DocumentNode<SetAccountRelationshipMutation, SetAccountRelationshipMutationVariables>;
export const RemoveAccountHolderDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveAccountHolder"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeAccountCustomer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerIds"}}]}}]}}]} as unknown as DocumentNode<RemoveAccountHolderMutation, RemoveAccountHolderMutationVariables>;
export const AccountTransactionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountTransactions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TransactionFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"transactions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactionId"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"balanceAfter"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"transferId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AccountTransactionsQuery, AccountTransactionsQueryVariables>;
export const SetAccountFlagDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetAccountFlag"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"flag"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AccountFlag"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reason"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"until"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setAccountFlag"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"flag"},"value":{"kind":"Variable","name":{"kind":"Name","value":"flag"}}},{"kind":"Argument","name":{"kind":"Name","value":"reason"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reason"}}},{"kind":"Argument","name":{"kind":"Name","value":"until"},"value":{"kind":"Variable","name":{"kind":"Name","value":"until"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"flags"}},{"kind":"Field","name":{"kind":"Name","value":"flagDetails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"flag"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"setAt"}},{"kind":"Field","name":{"kind":"Name","value":"setBy"}},{"kind":"Field","name":{"kind":"Name","value":"setByName"}},{"kind":"Field","name":{"kind":"Name","value":"until"}}]}}]}}]}}]} as unknown as DocumentNode<SetAccountFlagMutation, SetAccountFlagMutationVariables>;
export const ClearAccountFlagDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ClearAccountFlag"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"flag"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AccountFlag"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reason"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clearAccountFlag"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"flag"},"value":{"kind":"Variable","name":{"kind":"Name","value":"flag"}}},{"kind":"Argument","name":{"kind":"Name","value":"reason"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reason"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"flags"}},{"kind":"Field","name":{"kind":"Name","value":"flagDetails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"flag"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"setAt"}},{"kind":"Field","name":{"kind":"Name","value":"setBy"}},{"kind":"Field","name":{"kind":"Name","value":"setByName"}},{"kind":"Field","name":{"kind":"Name","value":"until"}}]}}]}}]}}]} as unknown as DocumentNode<ClearAccountFlagMutation, ClearAccountFlagMutationVariables>;
export const TransferTargetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TransferTarget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"withHolders"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"customers"},"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"withHolders"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TransferTargetQuery, TransferTargetQueryVariables>;
export const TransferMoneyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TransferMoney"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TransferInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transfer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transferId"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}}]}}]}}]} as unknown as DocumentNode<TransferMoneyMutation, TransferMoneyMutationVariables>;
export const PostHoldDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PostHold"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"transactionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"postHold"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"transactionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"transactionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactionId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<PostHoldMutation, PostHoldMutationVariables>;
export const VoidHoldDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"VoidHold"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"transactionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"voidHold"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"transactionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"transactionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactionId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<VoidHoldMutation, VoidHoldMutationVariables>;
export const SetOverdraftLimitDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetOverdraftLimit"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"overdraftLimit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Decimal"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setOverdraftLimit"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}},{"kind":"Argument","name":{"kind":"Name","value":"overdraftLimit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"overdraftLimit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"overdraftLimit"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"posted"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}},{"kind":"Field","name":{"kind":"Name","value":"available"}}]}}]}}]}}]} as unknown as DocumentNode<SetOverdraftLimitMutation, SetOverdraftLimitMutationVariables>;
export const LiveAccountUpdatedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveAccountUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<LiveAccountUpdatedSubscription, LiveAccountUpdatedSubscriptionVariables>;
export const LiveTransactionPostedDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveTransactionPosted"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactionPosted"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transactionId"}}]}}]}}]} as unknown as DocumentNode<LiveTransactionPostedSubscription, LiveTransactionPostedSubscriptionVariables>;
export const AccountProductFiguresDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountProductFigures"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"withProduct"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"feesAfter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"account"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"accountId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"productCode"}},{"kind":"Field","name":{"kind":"Name","value":"product"},"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"withProduct"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"fees"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"monthlyMaintenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"interest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"productCode"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}},{"kind":"Field","name":{"kind":"Name","value":"annualPercentageYield"}},{"kind":"Field","name":{"kind":"Name","value":"accruedUnpaid"}},{"kind":"Field","name":{"kind":"Name","value":"lastAccrualDate"}},{"kind":"Field","name":{"kind":"Name","value":"lastPostingDate"}},{"kind":"Field","name":{"kind":"Name","value":"paidYearToDate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"fees"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"12"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"feesAfter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"month"}},{"kind":"Field","name":{"kind":"Name","value":"minimumDailyBalance"}},{"kind":"Field","name":{"kind":"Name","value":"fee"}},{"kind":"Field","name":{"kind":"Name","value":"waivedAtMinimumDailyBalance"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"charged"}},{"kind":"Field","name":{"kind":"Name","value":"uncollected"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AccountProductFiguresQuery, AccountProductFiguresQueryVariables>;
export const AccountListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AccountList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"AccountFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accounts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"flags"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumberLast4"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"posted"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<AccountListQuery, AccountListQueryVariables>;
export const AuditTrailDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AuditTrail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"resourceId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"principalId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"operation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"auditEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"resourceId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"resourceId"}}},{"kind":"Argument","name":{"kind":"Name","value":"principalId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"principalId"}}},{"kind":"Argument","name":{"kind":"Name","value":"operation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"operation"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"principalId"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"resourceType"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}},{"kind":"Field","name":{"kind":"Name","value":"changedFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<AuditTrailQuery, AuditTrailQueryVariables>;
export const AddBeneficialOwnerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddBeneficialOwner"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"businessCustomerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AddBeneficialOwnerInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addBeneficialOwner"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"businessCustomerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"businessCustomerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customerId"}}]}}]}}]} as unknown as DocumentNode<AddBeneficialOwnerMutation, AddBeneficialOwnerMutationVariables>;
export const RemoveBeneficialOwnerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveBeneficialOwner"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"businessCustomerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ownerCustomerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeBeneficialOwner"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"businessCustomerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"businessCustomerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"ownerCustomerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ownerCustomerId"}}}]}]}}]} as unknown as DocumentNode<RemoveBeneficialOwnerMutation, RemoveBeneficialOwnerMutationVariables>;
export const ClockPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ClockPage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clock"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"now"}},{"kind":"Field","name":{"kind":"Name","value":"businessDate"}},{"kind":"Field","name":{"kind":"Name","value":"timeZone"}},{"kind":"Field","name":{"kind":"Name","value":"adjustable"}}]}},{"kind":"Field","name":{"kind":"Name","value":"endOfDay"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"businessDate"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"steps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"step"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"records"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]}}]} as unknown as DocumentNode<ClockPageQuery, ClockPageQueryVariables>;
export const AdvanceClockDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AdvanceClock"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"days"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"advanceClock"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"days"},"value":{"kind":"Variable","name":{"kind":"Name","value":"days"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"businessDaysRun"}}]}}]}}]} as unknown as DocumentNode<AdvanceClockMutation, AdvanceClockMutationVariables>;
export const CustomerDetailsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CustomerDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"withAccounts"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"customerType"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}},{"kind":"Field","name":{"kind":"Name","value":"doingBusinessAs"}},{"kind":"Field","name":{"kind":"Name","value":"entityType"}},{"kind":"Field","name":{"kind":"Name","value":"formationDate"}},{"kind":"Field","name":{"kind":"Name","value":"formationState"}},{"kind":"Field","name":{"kind":"Name","value":"formationCountry"}},{"kind":"Field","name":{"kind":"Name","value":"industry"}},{"kind":"Field","name":{"kind":"Name","value":"website"}}]}},{"kind":"Field","name":{"kind":"Name","value":"preferredName"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"dateOfBirth"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveReason"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"emails"}},{"kind":"Field","name":{"kind":"Name","value":"phoneNumbers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"number"}}]}},{"kind":"Field","name":{"kind":"Name","value":"addresses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"street"}},{"kind":"Field","name":{"kind":"Name","value":"city"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"zip"}}]}},{"kind":"Field","name":{"kind":"Name","value":"beneficialOwners"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"prongs"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"addedAt"}},{"kind":"Field","name":{"kind":"Name","value":"customer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerType"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"beneficialOwnerOf"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"businessCustomerId"}},{"kind":"Field","name":{"kind":"Name","value":"prongs"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"withAccounts"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"flags"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]} as unknown as DocumentNode<CustomerDetailsQuery, CustomerDetailsQueryVariables>;
export const UpdateCustomerContactDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateCustomerContact"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateCustomerInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateCustomer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"preferredName"}},{"kind":"Field","name":{"kind":"Name","value":"emails"}},{"kind":"Field","name":{"kind":"Name","value":"phoneNumbers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"number"}}]}},{"kind":"Field","name":{"kind":"Name","value":"addresses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"street"}},{"kind":"Field","name":{"kind":"Name","value":"city"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"zip"}}]}}]}}]}}]} as unknown as DocumentNode<UpdateCustomerContactMutation, UpdateCustomerContactMutationVariables>;
export const UpdateCustomerMetadataDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateCustomerMetadata"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"metadata"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Metadata"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateCustomer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"metadata"},"value":{"kind":"Variable","name":{"kind":"Name","value":"metadata"}}}]}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}}]}}]}}]} as unknown as DocumentNode<UpdateCustomerMetadataMutation, UpdateCustomerMetadataMutationVariables>;
export const DeleteCustomerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteCustomer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteCustomer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expectedVersion"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expectedVersion"}}}]}]}}]} as unknown as DocumentNode<DeleteCustomerMutation, DeleteCustomerMutationVariables>;
export const ArchiveCustomerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ArchiveCustomer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reason"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CustomerArchiveReason"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"archiveCustomer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"reason"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reason"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"archivedAt"}},{"kind":"Field","name":{"kind":"Name","value":"archiveReason"}}]}}]}}]} as unknown as DocumentNode<ArchiveCustomerMutation, ArchiveCustomerMutationVariables>;
export const FindCustomersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FindCustomers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CustomerFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerListItem"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CustomerListItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Customer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"customerType"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}},{"kind":"Field","name":{"kind":"Name","value":"doingBusinessAs"}}]}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"dateOfBirth"}}]}}]} as unknown as DocumentNode<FindCustomersQuery, FindCustomersQueryVariables>;
export const SearchCustomersBySsnDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SearchCustomersBySsn"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CustomerSearchInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"searchCustomers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerListItem"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CustomerListItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Customer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"customerType"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}},{"kind":"Field","name":{"kind":"Name","value":"doingBusinessAs"}}]}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"dateOfBirth"}}]}}]} as unknown as DocumentNode<SearchCustomersBySsnQuery, SearchCustomersBySsnQueryVariables>;
export const EventListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EventList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"SafeInt"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"types"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"events"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"resourceType"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}},{"kind":"Field","name":{"kind":"Name","value":"changedFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextAfter"}}]}}]}}]} as unknown as DocumentNode<EventListQuery, EventListQueryVariables>;
export const LiveEventsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"LiveEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"types"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"events"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"types"},"value":{"kind":"Variable","name":{"kind":"Name","value":"types"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"sequence"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"occurredAt"}},{"kind":"Field","name":{"kind":"Name","value":"resourceType"}},{"kind":"Field","name":{"kind":"Name","value":"resourceId"}},{"kind":"Field","name":{"kind":"Name","value":"changedFields"}}]}}]}}]} as unknown as DocumentNode<LiveEventsSubscription, LiveEventsSubscriptionVariables>;
export const CreateBusinessCustomerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateBusinessCustomer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateBusinessCustomerInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createBusinessCustomer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}}]}}]}}]} as unknown as DocumentNode<CreateBusinessCustomerMutation, CreateBusinessCustomerMutationVariables>;
export const CreateCustomerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateCustomer"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateCustomerInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createCustomer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}}]}}]}}]} as unknown as DocumentNode<CreateCustomerMutation, CreateCustomerMutationVariables>;
export const ProductPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProductPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"code"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clock"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"businessDate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"product"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"Variable","name":{"kind":"Name","value":"code"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProductTerms"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProductTerms"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"interest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dayCount"}},{"kind":"Field","name":{"kind":"Name","value":"balanceBasis"}},{"kind":"Field","name":{"kind":"Name","value":"compounding"}},{"kind":"Field","name":{"kind":"Name","value":"posting"}},{"kind":"Field","name":{"kind":"Name","value":"rate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectiveFrom"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}},{"kind":"Field","name":{"kind":"Name","value":"tiers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minimumBalance"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"rateHistory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectiveFrom"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}},{"kind":"Field","name":{"kind":"Name","value":"tiers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minimumBalance"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"fees"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"monthlyMaintenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"waivedAtMinimumDailyBalance"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"minimumOpeningDeposit"}},{"kind":"Field","name":{"kind":"Name","value":"minimumBalance"}},{"kind":"Field","name":{"kind":"Name","value":"limits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dailyWithdrawalTotal"}},{"kind":"Field","name":{"kind":"Name","value":"withdrawalsPerMonth"}}]}}]}}]} as unknown as DocumentNode<ProductPageQuery, ProductPageQueryVariables>;
export const ChangeProductRateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ChangeProductRate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"code"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ChangeProductRateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"changeProductRate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"Variable","name":{"kind":"Name","value":"code"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}}]}}]} as unknown as DocumentNode<ChangeProductRateMutation, ChangeProductRateMutationVariables>;
export const ProductsPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProductsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"products"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProductTerms"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProductTerms"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"accountType"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"interest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dayCount"}},{"kind":"Field","name":{"kind":"Name","value":"balanceBasis"}},{"kind":"Field","name":{"kind":"Name","value":"compounding"}},{"kind":"Field","name":{"kind":"Name","value":"posting"}},{"kind":"Field","name":{"kind":"Name","value":"rate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectiveFrom"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}},{"kind":"Field","name":{"kind":"Name","value":"tiers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minimumBalance"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"rateHistory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"effectiveFrom"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}},{"kind":"Field","name":{"kind":"Name","value":"tiers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minimumBalance"}},{"kind":"Field","name":{"kind":"Name","value":"annualRate"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"fees"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"monthlyMaintenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"amount"}},{"kind":"Field","name":{"kind":"Name","value":"waivedAtMinimumDailyBalance"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"minimumOpeningDeposit"}},{"kind":"Field","name":{"kind":"Name","value":"minimumBalance"}},{"kind":"Field","name":{"kind":"Name","value":"limits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dailyWithdrawalTotal"}},{"kind":"Field","name":{"kind":"Name","value":"withdrawalsPerMonth"}}]}}]}}]} as unknown as DocumentNode<ProductsPageQuery, ProductsPageQueryVariables>;
export const CreateProductDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateProduct"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateProductInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createProduct"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}},{"kind":"Argument","name":{"kind":"Name","value":"idempotencyKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"idempotencyKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"code"}}]}}]}}]} as unknown as DocumentNode<CreateProductMutation, CreateProductMutationVariables>;
export const ReviewQueueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReviewQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"verificationStatus"},"value":{"kind":"EnumValue","value":"NEEDS_REVIEW"}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"customerType"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<ReviewQueueQuery, ReviewQueueQueryVariables>;
export const TaxFormYearsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TaxFormYears"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"clock"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"businessDate"}}]}}]}}]} as unknown as DocumentNode<TaxFormYearsQuery, TaxFormYearsQueryVariables>;
export const CustomerTaxFormDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CustomerTaxForm"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"year"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"taxForm1099Int"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"year"},"value":{"kind":"Variable","name":{"kind":"Name","value":"year"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"taxYear"}},{"kind":"Field","name":{"kind":"Name","value":"final"}},{"kind":"Field","name":{"kind":"Name","value":"reportable"}},{"kind":"Field","name":{"kind":"Name","value":"reportingThreshold"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"recipient"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tinType"}},{"kind":"Field","name":{"kind":"Name","value":"tinLastFour"}}]}},{"kind":"Field","name":{"kind":"Name","value":"box1InterestIncome"}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumberLast4"}},{"kind":"Field","name":{"kind":"Name","value":"interestPaid"}}]}},{"kind":"Field","name":{"kind":"Name","value":"otherCurrencyAccounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"interestPaid"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CustomerTaxFormQuery, CustomerTaxFormQueryVariables>;
export const CustomerVerificationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CustomerVerification"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"beneficialOwners"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"prongs"}},{"kind":"Field","name":{"kind":"Name","value":"ownershipPercentage"}},{"kind":"Field","name":{"kind":"Name","value":"customer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"verification"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"verification"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"requirements"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"currentlyDue"}},{"kind":"Field","name":{"kind":"Name","value":"pendingVerification"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requirement"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"checks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"checkId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"provider"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"reasonCodes"}},{"kind":"Field","name":{"kind":"Name","value":"requestedAt"}},{"kind":"Field","name":{"kind":"Name","value":"completedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"documents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"documentId"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"mediaType"}},{"kind":"Field","name":{"kind":"Name","value":"sizeBytes"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"uploadedBy"}},{"kind":"Field","name":{"kind":"Name","value":"uploadedAt"}},{"kind":"Field","name":{"kind":"Name","value":"reviewedBy"}},{"kind":"Field","name":{"kind":"Name","value":"reviewedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"decision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"decidedBy"}},{"kind":"Field","name":{"kind":"Name","value":"decidedAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CustomerVerificationQuery, CustomerVerificationQueryVariables>;
export const RequestVerificationCheckDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RequestVerificationCheck"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"requestVerificationCheck"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"checkId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<RequestVerificationCheckMutation, RequestVerificationCheckMutationVariables>;
export const DecideVerificationDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DecideVerification"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"VerificationDecisionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"decideVerification"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<DecideVerificationMutation, DecideVerificationMutationVariables>;
export const ReviewDocumentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReviewDocument"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"documentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ReviewDocumentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewDocument"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"customerId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"customerId"}}},{"kind":"Argument","name":{"kind":"Name","value":"documentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"documentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"documentId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reasonCode"}}]}}]}}]} as unknown as DocumentNode<ReviewDocumentMutation, ReviewDocumentMutationVariables>;
export const WebhookEndpointListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEndpointList"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEndpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"failingSince"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]} as unknown as DocumentNode<WebhookEndpointListQuery, WebhookEndpointListQueryVariables>;
export const EnableWebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"EnableWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"enableWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}}]}}]}}]} as unknown as DocumentNode<EnableWebhookEndpointMutation, EnableWebhookEndpointMutationVariables>;
export const DisableWebhookEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DisableWebhookEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"disableWebhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}}]}}]}}]} as unknown as DocumentNode<DisableWebhookEndpointMutation, DisableWebhookEndpointMutationVariables>;
export const RotateWebhookSecretDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RotateWebhookSecret"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rotateWebhookSecret"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"endpoint"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]}}]} as unknown as DocumentNode<RotateWebhookSecretMutation, RotateWebhookSecretMutationVariables>;
export const WebhookEndpointDeliveriesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WebhookEndpointDeliveries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhookEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"attemptId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"attemptedAt"}},{"kind":"Field","name":{"kind":"Name","value":"statusCode"}},{"kind":"Field","name":{"kind":"Name","value":"latencyMs"}},{"kind":"Field","name":{"kind":"Name","value":"succeeded"}},{"kind":"Field","name":{"kind":"Name","value":"error"}}]}}]}}]}}]} as unknown as DocumentNode<WebhookEndpointDeliveriesQuery, WebhookEndpointDeliveriesQueryVariables>;
export const RedeliverWebhookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RedeliverWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"eventId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"redeliverWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"endpointId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"endpointId"}}},{"kind":"Argument","name":{"kind":"Name","value":"eventId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"eventId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}}]}}]}}]} as unknown as DocumentNode<RedeliverWebhookMutation, RedeliverWebhookMutationVariables>;
export const RecordSearchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RecordSearch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"byId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"byWord"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"byWordInAccounts"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"word"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"byFullName"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"firstName"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"lastName"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"legalName"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"byEmail"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"email"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"byPhone"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"phoneNumber"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"byHolderWord"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"byHolderFullName"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"byLast4"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"accountNumberLast4"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byId"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Customer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerHit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Account"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AccountHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"lastNames"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"lastName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"word"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byWord"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"firstNames"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"firstName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"word"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byWord"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"legalNames"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"legalName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"word"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byWord"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"customerExternalIds"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"externalId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"word"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byWord"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"accountExternalIds"},"name":{"kind":"Name","value":"accounts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"externalId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"word"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byWordInAccounts"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AccountHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"accountLast4s"},"name":{"kind":"Name","value":"accounts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"accountNumberLast4"},"value":{"kind":"Variable","name":{"kind":"Name","value":"accountNumberLast4"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byLast4"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AccountHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"fullNames"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"firstName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"firstName"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"lastName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lastName"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byFullName"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"businessNames"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"legalName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"legalName"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byFullName"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"emails"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"email"},"value":{"kind":"Variable","name":{"kind":"Name","value":"email"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byEmail"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"phones"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"phoneNumber"},"value":{"kind":"Variable","name":{"kind":"Name","value":"phoneNumber"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byPhone"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"CustomerHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"holderLastNames"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"3"}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"lastName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"word"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byHolderWord"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HolderHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"holderLegalNames"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"3"}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"legalName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"word"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byHolderWord"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HolderHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"holderFullNames"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"3"}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"firstName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"firstName"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"lastName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"lastName"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byHolderFullName"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HolderHit"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"holderBusinessNames"},"name":{"kind":"Name","value":"customers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"3"}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"legalName"},"value":{"kind":"Variable","name":{"kind":"Name","value":"legalName"}}}]}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"byHolderFullName"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"HolderHit"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AccountHit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Account"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"currency"}},{"kind":"Field","name":{"kind":"Name","value":"flags"}},{"kind":"Field","name":{"kind":"Name","value":"accountNumberLast4"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"posted"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CustomerHit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Customer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"customerType"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"emails"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"HolderHit"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Customer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"customerId"}},{"kind":"Field","name":{"kind":"Name","value":"firstName"}},{"kind":"Field","name":{"kind":"Name","value":"middleName"}},{"kind":"Field","name":{"kind":"Name","value":"lastName"}},{"kind":"Field","name":{"kind":"Name","value":"business"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"legalName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AccountHit"}}]}}]}}]} as unknown as DocumentNode<RecordSearchQuery, RecordSearchQueryVariables>;