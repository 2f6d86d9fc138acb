import { AccountService } from './accounts/index.js';
import { AuditService } from './audit/index.js';
import { CustomerService } from './customers/index.js';
import { BeneficialOwnerService, BusinessService } from './businesses/index.js';
import { VerificationService, type VerificationProvider } from './verification/index.js';
import { HistoryService, type HistoryServiceOptions } from './history/index.js';
import { IdempotentCreation } from './idempotency/index.js';
import { type EventFeed, EventService } from './events/index.js';
import { LedgerService } from './ledger/index.js';
import { LinkService } from './links/index.js';
import { NoteService } from './notes/index.js';
import type { PersonalDataProtector, Stores } from './ports.js';
import { type SecretSealer, WebhookService, type WebhookServiceOptions } from './webhooks/index.js';

export interface DomainServices {
  customers: CustomerService;
  businesses: BusinessService;
  beneficialOwners: BeneficialOwnerService;
  verification: VerificationService;
  accounts: AccountService;
  audit: AuditService;
  links: LinkService;
  notes: NoteService;
  ledger: LedgerService;
  history: HistoryService;
  events: EventService;
  webhooks: WebhookService;
}

export const DEFAULT_IDEMPOTENCY_TTL_HOURS = 24;

/** The one place the domain services are built; REST and GraphQL receive the same instances. */
export function createDomainServices(deps: {
  stores: Stores;
  protector: PersonalDataProtector & SecretSealer;
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
}): DomainServices {
  const ttlMs = (deps.idempotencyTtlHours ?? DEFAULT_IDEMPOTENCY_TTL_HOURS) * 60 * 60 * 1000;
  const creation = new IdempotentCreation(deps.stores.idempotency, deps.protector, ttlMs);
  const customers = new CustomerService(deps.stores, deps.protector, creation);
  const businesses = new BusinessService(deps.stores, customers, deps.protector, creation);
  customers.handBusinessesTo(businesses);
  return {
    customers,
    businesses,
    beneficialOwners: new BeneficialOwnerService(deps.stores),
    verification: new VerificationService(deps.stores, deps.verificationProvider ?? null),
    accounts: new AccountService(deps.stores, creation),
    audit: new AuditService(deps.stores),
    links: new LinkService(deps.stores.links, (environment, read) => customers.withProfiles(environment, read)),
    ledger: new LedgerService(deps.stores, creation),
    notes: new NoteService(deps.stores, creation),
    history: new HistoryService(deps.stores, undefined, deps.history),
    events: new EventService(deps.stores, deps.eventFeed),
    webhooks: new WebhookService(deps.stores.webhooks, deps.protector, deps.webhooks),
  };
}
