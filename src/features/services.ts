import { AccountService, flagExpiryStep } from './accounts/index.js';
import { type AccountNumberOptions, type AccountNumberSealer, AccountNumberService } from './account-numbers/index.js';
import { AuditService } from './audit/index.js';
import { type ClockSettings, EndOfDayService, EnvironmentClockService } from './clock/index.js';
import { CustomerService } from './customers/index.js';
import { BeneficialOwnerService, BusinessService } from './businesses/index.js';
import {
  type DocumentSealer,
  type SealedFieldOpener,
  type SubmittingProvider,
  VerificationDocumentService,
  VerificationGates,
  VerificationHttpService,
  VerificationService,
  type VerificationProvider,
} from './verification/index.js';
import { HistoryService, type HistoryServiceOptions } from './history/index.js';
import { IdempotentCreation } from './idempotency/index.js';
import { type EventFeed, EventService } from './events/index.js';
import { holdExpiryStep, LedgerService } from './ledger/index.js';
import { LinkService } from './links/index.js';
import { NoteService } from './notes/index.js';
import { ProductService } from './products/index.js';
import { TimelineService } from './timeline/index.js';
import { DEFAULT_REOPEN_WINDOW_DAYS, LifecycleService } from './lifecycle/index.js';
import { InterestService, interestAccrualStep, interestPostingStep } from './interest/index.js';
import { FeeService, maintenanceFeeStep } from './fees/index.js';
import { type SealedTinOpener, type TaxFormPayer, TaxFormService } from './tax-forms/index.js';
import { SANDBOX_PAYER } from '../config/tax-forms.js';
import {
  DEFAULT_DORMANCY_SETTINGS,
  DormancyService,
  type DormancySettings,
  dormancyStep,
  escheatmentNoticeStep,
} from './dormancy/index.js';
import type { PersonalDataProtector, Stores } from './ports.js';
import { type SecretSealer, WebhookService, type WebhookServiceOptions } from './webhooks/index.js';

export interface DomainServices {
  customers: CustomerService;
  businesses: BusinessService;
  beneficialOwners: BeneficialOwnerService;
  verification: VerificationService;
  /** The `http` provider's callbacks (docs/adr/0104); null unless VERIFICATION_PROVIDER=http. */
  verificationCallbacks: VerificationHttpService | null;
  /** A customer's verification documents (docs/adr/0103). */
  verificationDocuments: VerificationDocumentService;
  accounts: AccountService;
  /** Account and routing numbers (docs/adr/0107). */
  accountNumbers: AccountNumberService;
  audit: AuditService;
  links: LinkService;
  notes: NoteService;
  /** Deposit products (docs/adr/0112). */
  products: ProductService;
  timeline: TimelineService;
  /** Accounts close and reopen, customers archive (docs/adr/0106). */
  lifecycle: LifecycleService;
  /** Dormancy, reactivation and escheatment (docs/adr/0109). */
  dormancy: DormancyService;
  /** Interest on deposit products: accrual, posting, an account's interest (docs/adr/0113). */
  interest: InterestService;
  /** The monthly maintenance fee of deposit products: its month-end assessment, an account's assessments (docs/adr/0115). */
  fees: FeeService;
  /** A customer's 1099-INT (docs/adr/0116). */
  taxForms: TaxFormService;
  ledger: LedgerService;
  history: HistoryService;
  events: EventService;
  webhooks: WebhookService;
  clock: EnvironmentClockService;
  endOfDay: EndOfDayService;
}

/** The clocks' configuration (src/config/clock.ts) as the services take it. */
export interface ClockOptions extends ClockSettings {
  /** How long an instance's claim on a day's run lasts without renewal (END_OF_DAY_LEASE_MS). */
  endOfDayLeaseMs: number;
  /** A step failed (logged by the composition root); the day is recorded FAILED and runs again. */
  onEndOfDayFailure?: (environment: string, businessDate: string, step: string, error: unknown) => void;
}

/** Without configuration (a test's harness): every environment in New York time, the sandbox adjustable. */
const DEFAULT_CLOCK_OPTIONS: ClockOptions = { timeZones: {}, adjustable: ['sandbox'], endOfDayLeaseMs: 60_000 };

export const DEFAULT_IDEMPOTENCY_TTL_HOURS = 24;

/** The one place the domain services are built; REST and GraphQL receive the same instances. */
export function createDomainServices(deps: {
  stores: Stores;
  protector: PersonalDataProtector & SecretSealer & DocumentSealer & AccountNumberSealer & SealedTinOpener;
  /** Each environment's ABA routing number (ROUTING_NUMBERS). */
  accountNumbers?: AccountNumberOptions;
  /** Webhook endpoint management: the URL guard and the secret rotation overlap. */
  webhooks?: WebhookServiceOptions;
  /** How long an idempotency key is remembered (IDEMPOTENCY_TTL_HOURS). */
  idempotencyTtlHours?: number;
  /** Live events for GraphQL subscriptions (src/features/events/event-feed.job.ts); absent, nothing can be followed. */
  eventFeed?: EventFeed;
  /** The ledger export's concurrency limit (LEDGER_EXPORT_MAX_CONCURRENT) and its refusal metric. */
  history?: HistoryServiceOptions;
  /** Who answers verification checks (VERIFICATION_PROVIDER); absent or null, checks are refused. */
  verificationProvider?: VerificationProvider | null;
  /** The gated environments (VERIFICATION_REQUIRED) and the `http` provider (docs/adr/0104). */
  verification?: {
    required?: readonly string[];
    /** The largest document an upload may carry (VERIFICATION_DOCUMENT_MAX_BYTES); 10 MiB when absent. */
    documentMaxBytes?: number;
    http?: {
      provider: SubmittingProvider;
      opener: SealedFieldOpener;
      callbackSecret: string;
      log?: { warn(fields: Record<string, unknown>, message: string): void };
    };
  };
  /** Environment clocks and the end of day (ENVIRONMENT_TIME_ZONES, ADJUSTABLE_CLOCK_ENVIRONMENTS, END_OF_DAY_LEASE_MS). */
  clock?: ClockOptions;
  /** How many days after its closing an account may be reopened (ACCOUNT_REOPEN_WINDOW_DAYS; 30 by default). */
  reopenWindowDays?: number;
  /** INACTIVE_AFTER_DAYS, DORMANT_AFTER_DAYS, ESCHEATMENT_NOTICE_DAYS (365, 730, 120 by default). */
  dormancy?: DormancySettings;
  /** The static tokens' principals by id → name (API_TOKENS), so the timeline names them as their answers do. */
  staticPrincipalNames?: ReadonlyMap<string, string>;
  /** The 1099-INT's payer (TAX_FORM_PAYER_*); absent: the sandbox's made-up payer (a test's harness), null: none. */
  taxFormPayer?: TaxFormPayer | null;
}): DomainServices {
  const ttlMs = (deps.idempotencyTtlHours ?? DEFAULT_IDEMPOTENCY_TTL_HOURS) * 60 * 60 * 1000;
  const creation = new IdempotentCreation(deps.stores.idempotency, deps.protector, ttlMs);
  const clockOptions = deps.clock ?? DEFAULT_CLOCK_OPTIONS;
  // The port every time-based rule reads; the advance needs the end of day, which needs the steps' services.
  const time = { now: (environment: string) => deps.stores.clock.now(environment) };
  const gates = new VerificationGates(deps.stores.verificationHttp, deps.verification?.required ?? []);
  const accountNumbers = new AccountNumberService(deps.stores, deps.protector, deps.accountNumbers);
  const timeZoneOf = (environment: string) => clockOptions.timeZones[environment] ?? 'America/New_York';
  const products = new ProductService(deps.stores, creation, time, timeZoneOf);
  const accounts = new AccountService(deps.stores, creation, accountNumbers, time, gates, products);
  const ledger = new LedgerService(deps.stores, creation, time, gates, timeZoneOf);
  const http = deps.verification?.http;
  let verificationCallbacks: VerificationHttpService | null = null;
  const verification = new VerificationService(
    deps.stores,
    http
      ? { name: http.provider.name, resultDelayMs: 0, referenceFor: (checkId) => checkId }
      : (deps.verificationProvider ?? null),
    {
      freezesIn: (environment) => gates.requiredIn(environment),
      submissions: {
        submitDueChecks: (stopped) => verificationCallbacks?.submitDueChecks(stopped) ?? Promise.resolve(0),
      },
    },
  );
  if (http)
    verificationCallbacks = new VerificationHttpService(
      deps.stores,
      http.provider,
      http.opener,
      http.callbackSecret,
      (environment, caller) => verification.freezeIn(environment, caller),
      http.log,
    );
  const dormancy = new DormancyService(
    deps.stores,
    time,
    deps.dormancy ?? DEFAULT_DORMANCY_SETTINGS,
    (environment) => clockOptions.timeZones[environment] ?? 'America/New_York',
  );
  const interest = new InterestService(
    deps.stores,
    time,
    (environment) => clockOptions.timeZones[environment] ?? 'America/New_York',
  );
  const fees = new FeeService(deps.stores, (environment) => clockOptions.timeZones[environment] ?? 'America/New_York');
  // The end of day's steps, in order (docs/adr/0102). Interest accrues after the day's holds and flags are settled (a
  // hold voided is no part of a balance anyway: interest is on the posted balance), and posts after the accrual of the
  // period's last day. The maintenance fee is assessed after the month's interest is posted (that credit counts in the
  // month's last day's balance, docs/adr/0115). Dormancy runs after the day's other steps (an interest credit is not the customer's activity),
  // then the escheatment notices (which read the activity the dormancy step left).
  const endOfDay = new EndOfDayService(
    deps.stores,
    time,
    { timeZones: clockOptions.timeZones, leaseMs: clockOptions.endOfDayLeaseMs },
    [
      holdExpiryStep(ledger),
      flagExpiryStep(accounts),
      interestAccrualStep(interest),
      interestPostingStep(interest),
      maintenanceFeeStep(fees),
      dormancyStep(dormancy),
      escheatmentNoticeStep(dormancy),
    ],
    clockOptions.onEndOfDayFailure,
  );
  const customers = new CustomerService(deps.stores, deps.protector, creation);
  const businesses = new BusinessService(deps.stores, customers, deps.protector, creation);
  customers.handBusinessesTo(businesses);
  return {
    customers,
    businesses,
    beneficialOwners: new BeneficialOwnerService(deps.stores),
    verification,
    verificationCallbacks,
    verificationDocuments: new VerificationDocumentService(deps.stores, deps.protector, {
      maxBytes: deps.verification?.documentMaxBytes,
    }),
    accounts,
    accountNumbers,
    audit: new AuditService(deps.stores),
    links: new LinkService(deps.stores.links, (environment, read) => customers.withProfiles(environment, read)),
    ledger,
    notes: new NoteService(deps.stores, creation),
    products,
    timeline: new TimelineService(deps.stores, deps.staticPrincipalNames),
    lifecycle: new LifecycleService(
      deps.stores,
      time,
      {
        reopenWindowDays: deps.reopenWindowDays ?? DEFAULT_REOPEN_WINDOW_DAYS,
        timeZoneOf: (environment) => clockOptions.timeZones[environment] ?? 'America/New_York',
      },
      (environment, read) => customers.withProfiles(environment, read),
      gates,
    ),
    dormancy,
    interest,
    fees,
    taxForms: new TaxFormService(deps.stores, deps.protector, time, {
      payer: deps.taxFormPayer === undefined ? SANDBOX_PAYER : deps.taxFormPayer,
      timeZoneOf,
    }),
    history: new HistoryService(deps.stores, time, deps.history),
    events: new EventService(deps.stores, deps.eventFeed),
    webhooks: new WebhookService(deps.stores.webhooks, deps.protector, deps.webhooks),
    clock: new EnvironmentClockService(deps.stores, clockOptions, endOfDay),
    endOfDay,
  };
}
