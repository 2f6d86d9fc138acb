import { type Request, type Response, Router } from 'express';
import type { Caller } from '../domain/caller.js';
import { authenticateRequest } from '../http/authenticate-request.js';
import { corsForAllowedOrigins } from '../http/cors.js';
import type { HttpDependencies } from '../http/dependencies.js';
import { createJsonBodyReader, type JsonBodyReader } from '../http/json-body.js';
import { chargeAccountNumberLookup, chargeSsnRefusal, chargeSsnSearch } from '../http/rate-limit.js';
import { CONSISTENCY_TOKEN_HEADER } from '../http/read-consistency.js';
import { malformedRequest, notAcceptable, unsupportedMediaType } from '../http/errors.js';
import { checkDeprecation, deprecationHeaders } from './deprecation.js';
import { sendEnvelope, sendNotModified } from './envelope.js';
import { entityTag, ifMatchCondition, notModified } from './entity-tags.js';
import { methodNotAllowed } from './error-mapping.js';
import { answerShape } from '../domain/answer-shape.js';
import {
  type Account,
  listAccountsQuery,
  presentAccount,
  presentAccountAnswer,
  presentAccountFlags,
  presentAccountPage,
} from '../features/accounts/index.js';
import {
  type Customer,
  listCustomersQuery,
  presentAnyCustomer,
  presentCustomerAnswer,
  presentCustomerPage,
  searchCustomersBody,
} from '../features/customers/index.js';
import { beneficialOwnerAnswer, presentBeneficialOwners } from '../features/businesses/index.js';
import {
  DOCUMENT_MEDIA_TYPE_MESSAGE,
  type DocumentMediaType,
  documentAnswer,
  documentFileName,
  presentDocument,
  presentVerification,
  verificationAnswer,
  verificationCheckAnswer,
} from '../features/verification/index.js';
import { listAuditEventsQuery, presentAuditPage } from '../features/audit/index.js';
import { listProductsQuery, presentProduct, presentProductPage } from '../features/products/index.js';
import {
  presentAccountNumber,
  presentAccountNumberLookup,
  presentAccountNumbers,
} from '../features/account-numbers/index.js';
import { endOfDayQuery, presentClock, presentClockAdvance, presentEndOfDay } from '../features/clock/index.js';
import { escheatmentQuery, presentEscheatmentPage } from '../features/dormancy/index.js';
import { presentInterest } from '../features/interest/index.js';
import { listFeesQuery, presentFeeAssessmentPage } from '../features/fees/index.js';
import { form1099IntFileName, form1099IntPdfOf, presentForm1099Int } from '../features/tax-forms/index.js';
import {
  listNotesQuery,
  presentAccountNote,
  presentAccountNotePage,
  presentCustomerNote,
  presentCustomerNotePage,
} from '../features/notes/index.js';
import {
  listEventsQuery,
  presentEvent,
  presentEventPage,
  presentRecordEvents,
  recordEventsQuery,
} from '../features/events/index.js';
import {
  balanceHistoryQuery,
  balanceQuery,
  ledgerExportCsvHeader,
  ledgerExportQuery,
  presentBalanceAsOf,
  presentBalanceHistory,
  presentStatement,
  statementCsvChunks,
  statementQuery,
} from '../features/history/index.js';
import {
  listTransactionsQuery,
  presentTransaction,
  presentTransactionPage,
  presentTransfer,
} from '../features/ledger/index.js';
import {
  listWebhookAttemptsQuery,
  presentWebhookAttempts,
  presentWebhookEndpoint,
} from '../features/webhooks/index.js';
import { type HttpMethod, type OperationId, REST_ROUTES, type RestRoute, takesIdempotencyKey } from './routes.js';

interface Call {
  caller: Caller;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** The `Idempotency-Key` header, when sent (validated by the domain). */
  idempotencyKey: string | undefined;
  /** The `If-Match` header, when sent (src/rest/entity-tags.ts reads it for the record it names). */
  ifMatch: string | undefined;
  /** The representation `Accept` chose among the route's (`application/json` for a route without any). */
  mediaType: string;
  /** A route with a raw body (`rawBody`): its media type, announced length and bytes, read as the operation reads them. */
  upload: RawBody | undefined;
}

interface RawBody {
  mediaType: string;
  declaredLength: number | undefined;
  content: AsyncIterable<Uint8Array>;
}

interface Reply {
  status: 200 | 201 | 202;
  data: object;
  headers?: Record<string, string>;
  /** The answered record's entity tag (src/rest/entity-tags.ts), sent as ETag; a GET answers 304 when If-None-Match lists it. */
  etag?: string;
  /** The data's last field, when it can hold thousands of items: written a few hundred at a time (src/rest/envelope.ts, envelopePieces). */
  longList?: string;
}

/** A representation other than the envelope, whole (a statement as PDF). */
interface DocumentReply {
  kind: 'document';
  contentType: string;
  body: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * A representation written as it is read or rendered (the ledger export, a statement as CSV): `stream` hands each chunk to `write`, which
 * waits while the client is slow and answers false once it has gone (then reading stops).
 */
interface StreamReply {
  kind: 'stream';
  contentType: string;
  headers?: Record<string, string>;
  stream(write: (chunk: string | Buffer) => Promise<boolean>): Promise<void>;
}

type Operation = (call: Call) => Promise<Reply | DocumentReply | StreamReply>;

const ok = (data: object): Reply => ({ status: 200, data });
/** 202: recorded, its outcome to come (a verification check's result arrives later). */
const accepted = (data: object): Reply => ({ status: 202, data });
/** 201 with the new record's Location; a replayed idempotent creation says so (same status, same ids). */
const created = (location: string, data: object, replayed: boolean): Reply => ({
  status: 201,
  data,
  headers: { Location: location, ...(replayed && { 'Idempotent-Replayed': 'true' }) },
});

/** A replayed idempotent request that is not a creation: same status, marked as a replay. */
const replay = (reply: Reply, replayed: boolean): Reply =>
  replayed ? { ...reply, headers: { 'Idempotent-Replayed': 'true' } } : reply;

/** The reply, with the entity tag of the customer or account it answers. */
const tagged = (reply: Reply, record: { version: number }, id: string): Reply => ({
  ...reply,
  etag: entityTag(id, record.version),
});
/** A statement's file name: the account and the period's dates (UTC). */
/**
 * A write's answer about an account or a customer, shaped by the caller's read scope (src/domain/answer-shape.ts):
 * the whole record with it, the acknowledgment (the id) without. The ETag is the record's either way.
 */
const accountAnswer = (caller: Caller, account: Account) =>
  presentAccountAnswer(account, answerShape(caller, 'account'));
const customerAnswer = (caller: Caller, customer: Customer) =>
  presentCustomerAnswer(customer, answerShape(caller, 'customer'));
const statementFileName = (accountId: string, from: string, to: string, extension: string) =>
  `statement-${accountId}-${from.slice(0, 10)}-${to.slice(0, 10)}.${extension}`;

const transactionPath = (caller: Caller, accountId: string, transactionId: string) =>
  `/${caller.environment}/account/${accountId}/transaction/${transactionId}`;

const METHODS_WITH_BODY: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT']);

/**
 * The REST surface: every operation of src/rest/routes.ts (REST_ROUTES, which the OpenAPI document
 * describes), each mounted with the handler of its operationId below. Every operation resolves the request context
 * (environment, bearer token and rate limits: src/http/authenticate-request.ts), reads the JSON body if
 * the method has one, calls the domain service and presents the result. Business rules live in the
 * services; errors go to the final error handler (src/rest/fallbacks.ts) through Express's async error
 * propagation.
 */
export function createRestRouter(deps: HttpDependencies): Router {
  const router = Router({ caseSensitive: true, strict: false });
  const readBody = createJsonBodyReader(deps.config.bodyLimitBytes);
  const {
    customers,
    beneficialOwners,
    verification,
    verificationDocuments,
    accounts,
    accountNumbers,
    audit,
    ledger,
    history,
    events,
    webhooks,
    notes,
    products,
    lifecycle,
    dormancy,
    interest,
    fees,
    taxForms,
    clock,
    endOfDay,
  } = deps.services;
  // Browser clients from CORS_ORIGINS only; without an allowed Origin, OPTIONS stays 405 as for any server.
  // On the REST routes only: this router comes first (src/app.ts) and GraphQL has its own policy.
  const cors = corsForAllowedOrigins(deps.config.corsOrigins, ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']);

  // One handler per documented operation: the compiler refuses a route without a handler and the reverse.
  const handlers: Record<OperationId, Operation> = {
    // A replay answers the customer's tag as it is now (the replay reads it), like its other answers.
    createCustomer: async ({ caller, body, idempotencyKey }) => {
      const { value, replayed } = await chargeSsnRefusal(deps.rateLimits, caller.principal.id, () =>
        customers.create(caller, body, { idempotencyKey }),
      );
      return tagged(
        created(`/${caller.environment}/customer/${value.customerId}`, { customerId: value.customerId }, replayed),
        value,
        value.customerId,
      );
    },
    listCustomers: async ({ caller, query }) => {
      const { filter, page } = listCustomersQuery(caller, query);
      return ok(presentCustomerPage(await customers.find(caller, filter, page)));
    },
    searchCustomers: async ({ caller, body }) => {
      await chargeSsnSearch(deps.rateLimits, caller.principal.id, body);
      const { filter, page } = searchCustomersBody(caller, body);
      return ok(presentCustomerPage(await customers.search(caller, filter, page)));
    },
    getCustomer: async ({ caller, params }) => {
      const customer = await customers.get(caller, params.customerId!);
      return tagged(ok(presentAnyCustomer(customer)), customer, customer.customerId);
    },
    updateCustomer: async ({ caller, params, body, ifMatch }) => {
      const customer = await customers.update(
        caller,
        params.customerId!,
        body,
        ifMatchCondition(ifMatch, params.customerId!),
      );
      return tagged(ok(customerAnswer(caller, customer)), customer, customer.customerId);
    },
    deleteCustomer: async ({ caller, params, ifMatch }) => {
      await customers.delete(caller, params.customerId!, ifMatchCondition(ifMatch, params.customerId!));
      return ok({});
    },
    listBeneficialOwners: async ({ caller, params }) =>
      ok(presentBeneficialOwners(await beneficialOwners.list(caller, params.customerId!))),
    addBeneficialOwner: async ({ caller, params, body }) => {
      const owner = await beneficialOwners.add(caller, params.customerId!, body);
      return created(
        `/${caller.environment}/customer/${params.customerId!.toLowerCase()}/beneficial-owner/${owner.customerId}`,
        beneficialOwnerAnswer(caller, owner),
        false,
      );
    },
    addCustomerNote: async ({ caller, params, body, idempotencyKey }) => {
      const { value, replayed } = await notes.add(caller, 'customer', params.customerId!, body, { idempotencyKey });
      return created(`/${caller.environment}/customer/${value.customerId}/note`, presentCustomerNote(value), replayed);
    },
    listCustomerNotes: async ({ caller, params, query }) =>
      ok(
        presentCustomerNotePage(
          await notes.list(caller, 'customer', params.customerId!, listNotesQuery(caller, query)),
        ),
      ),
    addAccountNote: async ({ caller, params, body, idempotencyKey }) => {
      const { value, replayed } = await notes.add(caller, 'account', params.accountId!, body, { idempotencyKey });
      return created(`/${caller.environment}/account/${value.accountId}/note`, presentAccountNote(value), replayed);
    },
    listAccountNotes: async ({ caller, params, query }) =>
      ok(presentAccountNotePage(await notes.list(caller, 'account', params.accountId!, listNotesQuery(caller, query)))),
    createProduct: async ({ caller, body, idempotencyKey }) => {
      const { value, replayed } = await products.create(caller, body, { idempotencyKey });
      return created(`/${caller.environment}/product/${value.code}`, presentProduct(value), replayed);
    },
    listProducts: async ({ caller, query }) =>
      ok(presentProductPage(await products.list(caller, listProductsQuery(caller, query)))),
    getProduct: async ({ caller, params }) => ok(presentProduct(await products.get(caller, params.code!))),
    changeProductRate: async ({ caller, params, body }) =>
      ok(presentProduct(await products.changeRate(caller, params.code!, body))),
    listAccountNumbers: async ({ caller, params }) =>
      ok(
        presentAccountNumbers(
          accountNumbers.routingNumber(caller.environment),
          await accountNumbers.list(caller, params.accountId!),
        ),
      ),
    addAccountNumber: async ({ caller, params, body }) => {
      const added = await accountNumbers.add(caller, params.accountId!, body ?? {});
      return created(
        `/${caller.environment}/account/${added.accountId}/account-numbers`,
        presentAccountNumber(added),
        false,
      );
    },
    updateAccountNumber: async ({ caller, params, body }) =>
      ok(presentAccountNumber(await accountNumbers.update(caller, params.accountId!, params.accountNumberId!, body))),
    lookupAccountNumber: async ({ caller, body }) => {
      await chargeAccountNumberLookup(deps.rateLimits, caller.principal.id);
      return ok(presentAccountNumberLookup(await accountNumbers.lookup(caller, body)));
    },
    removeBeneficialOwner: async ({ caller, params }) => {
      await beneficialOwners.remove(caller, params.customerId!, params.ownerCustomerId!);
      return ok({});
    },
    getVerification: async ({ caller, params }) =>
      ok(presentVerification(await verification.get(caller, params.customerId!))),
    requestVerificationCheck: async ({ caller, params }) =>
      accepted(verificationCheckAnswer(caller, await verification.requestCheck(caller, params.customerId!))),
    decideVerification: async ({ caller, params, body }) =>
      ok(verificationAnswer(caller, await verification.decide(caller, params.customerId!, body))),
    uploadVerificationDocument: async ({ caller, params, query, upload }) => {
      const document = await verificationDocuments.upload(caller, params.customerId!, {
        type: query.type,
        mediaType: upload!.mediaType as DocumentMediaType,
        declaredLength: upload!.declaredLength,
        content: upload!.content,
      });
      return created(
        `/${caller.environment}/customer/${document.customerId}/document/${document.documentId}`,
        documentAnswer(caller, document),
        false,
      );
    },
    getVerificationDocument: async ({ caller, params }) =>
      ok(presentDocument(await verificationDocuments.get(caller, params.customerId!, params.documentId!))),
    getVerificationDocumentContent: async ({ caller, params }) => {
      const { document, chunks } = await verificationDocuments.content(caller, params.customerId!, params.documentId!);
      return {
        kind: 'stream',
        contentType: document.mediaType,
        headers: {
          'Content-Disposition': `attachment; filename="${documentFileName(document)}"`,
          'Content-Length': String(document.sizeBytes),
          'X-Content-Type-Options': 'nosniff',
        },
        stream: async (write) => {
          for await (const chunk of chunks) if (!(await write(chunk))) return;
        },
      };
    },
    reviewVerificationDocument: async ({ caller, params, body }) =>
      ok(
        documentAnswer(
          caller,
          await verificationDocuments.review(caller, params.customerId!, params.documentId!, body),
        ),
      ),
    // A replay answers the account as first created, and so the tag of that version.
    createAccount: async ({ caller, body, idempotencyKey }) => {
      const { value: account, replayed } = await accounts.create(caller, body, { idempotencyKey });
      return tagged(
        created(`/${caller.environment}/account/${account.accountId}`, accountAnswer(caller, account), replayed),
        account,
        account.accountId,
      );
    },
    listAccounts: async ({ caller, query }) => {
      const { filter, page } = listAccountsQuery(caller, query);
      return ok(presentAccountPage(await accounts.find(caller, filter, page)));
    },
    getAccount: async ({ caller, params }) => {
      const account = await accounts.get(caller, params.accountId!);
      return tagged(ok(presentAccount(account)), account, account.accountId);
    },
    updateAccount: async ({ caller, params, body, ifMatch }) => {
      const account = await accounts.update(
        caller,
        params.accountId!,
        body,
        ifMatchCondition(ifMatch, params.accountId!),
      );
      return tagged(ok(accountAnswer(caller, account)), account, account.accountId);
    },
    deleteAccount: async ({ caller, params, ifMatch }) => {
      await accounts.delete(caller, params.accountId!, ifMatchCondition(ifMatch, params.accountId!));
      return ok({});
    },
    addAccountCustomer: async ({ caller, params, body }) =>
      ok(accountAnswer(caller, await accounts.addCustomer(caller, params.accountId!, body))),
    // The account's controls and holders answer the account (shaped as above): its tag, and If-Match on the account's version.
    removeAccountCustomer: async ({ caller, params, ifMatch }) => {
      const account = await accounts.removeCustomer(
        caller,
        params.accountId!,
        params.customerId!,
        ifMatchCondition(ifMatch, params.accountId!),
      );
      return tagged(ok(accountAnswer(caller, account)), account, account.accountId);
    },
    setAccountCustomerRole: async ({ caller, params, body, ifMatch }) => {
      const account = await accounts.setCustomerRole(
        caller,
        params.accountId!,
        params.customerId!,
        body,
        ifMatchCondition(ifMatch, params.accountId!),
      );
      return tagged(ok(accountAnswer(caller, account)), account, account.accountId);
    },
    setAccountFlag: async ({ caller, params, body, ifMatch }) => {
      const account = await accounts.setFlag(
        caller,
        params.accountId!,
        params.flag,
        body,
        ifMatchCondition(ifMatch, params.accountId!),
      );
      return tagged(ok(accountAnswer(caller, account)), account, account.accountId);
    },
    listAccountFlags: async ({ caller, params }) =>
      ok(presentAccountFlags(await accounts.flagDetails(caller, params.accountId!))),
    clearAccountFlag: async ({ caller, params, ifMatch }) => {
      const account = await accounts.clearFlag(
        caller,
        params.accountId!,
        params.flag,
        undefined,
        ifMatchCondition(ifMatch, params.accountId!),
      );
      return tagged(ok(accountAnswer(caller, account)), account, account.accountId);
    },
    liftAccountFlag: async ({ caller, params, body }) => {
      const account = await accounts.liftFlag(caller, params.accountId!, params.flag, body);
      return ok(accountAnswer(caller, account));
    },
    closeAccount: async ({ caller, params, body }) =>
      ok(accountAnswer(caller, await lifecycle.closeAccount(caller, params.accountId!, body))),
    reopenAccount: async ({ caller, params, body }) =>
      ok(accountAnswer(caller, await lifecycle.reopenAccount(caller, params.accountId!, body))),
    reactivateAccount: async ({ caller, params, body }) =>
      ok(accountAnswer(caller, await dormancy.reactivate(caller, params.accountId!, body))),
    getAccountInterest: async ({ caller, params }) =>
      ok(presentInterest(await interest.summary(caller, params.accountId!))),
    listAccountFees: async ({ caller, params, query }) =>
      ok(presentFeeAssessmentPage(await fees.list(caller, params.accountId!, listFeesQuery(caller, query)))),
    getCustomerTaxForm1099Int: async ({ caller, params, mediaType }) => {
      const form = await taxForms.form1099Int(caller, params.customerId!, params.year!);
      if (mediaType !== 'application/pdf') return ok(presentForm1099Int(form));
      return {
        kind: 'document',
        contentType: 'application/pdf',
        // Drawn by the statement PDF workers (STATEMENT_RENDERING_BUSY when they have no room); never kept.
        body: await deps.statementPdfs.renderForm1099Int(form1099IntPdfOf(form)),
        headers: { 'Content-Disposition': `inline; filename="${form1099IntFileName(form)}"` },
      };
    },
    listEscheatment: async ({ caller, query }) =>
      ok(presentEscheatmentPage(await dormancy.escheatment(caller, escheatmentQuery(caller, query)))),
    archiveCustomer: async ({ caller, params, body }) =>
      ok(customerAnswer(caller, await lifecycle.archiveCustomer(caller, params.customerId!, body))),
    setOverdraftLimit: async ({ caller, params, body, ifMatch }) => {
      const account = await accounts.setOverdraftLimit(
        caller,
        params.accountId!,
        body,
        ifMatchCondition(ifMatch, params.accountId!),
      );
      return tagged(ok(accountAnswer(caller, account)), account, account.accountId);
    },
    postTransaction: async ({ caller, params, body, idempotencyKey }) => {
      const { value, replayed } = await ledger.postTransaction(caller, params.accountId!, body, { idempotencyKey });
      return created(
        transactionPath(caller, value.accountId, value.transactionId),
        presentTransaction(value),
        replayed,
      );
    },
    listTransactions: async ({ caller, params, query }) => {
      const { filter, page } = listTransactionsQuery(caller, query);
      return ok(presentTransactionPage(await ledger.findTransactions(caller, params.accountId!, filter, page)));
    },
    getTransaction: async ({ caller, params }) =>
      ok(presentTransaction(await ledger.getTransaction(caller, params.accountId!, params.transactionId!))),
    postHold: async ({ caller, params, body, idempotencyKey }) => {
      const { value, replayed } = await ledger.postHold(caller, params.accountId!, params.transactionId!, body, {
        idempotencyKey,
      });
      return replay(ok(presentTransaction(value)), replayed);
    },
    voidHold: async ({ caller, params, idempotencyKey }) => {
      const { value, replayed } = await ledger.voidHold(caller, params.accountId!, params.transactionId!, {
        idempotencyKey,
      });
      return replay(ok(presentTransaction(value)), replayed);
    },
    reverseTransaction: async ({ caller, params, body, idempotencyKey }) => {
      const { value, replayed } = await ledger.reverse(caller, params.accountId!, params.transactionId!, body, {
        idempotencyKey,
      });
      return created(
        transactionPath(caller, value.accountId, value.transactionId),
        presentTransaction(value),
        replayed,
      );
    },
    createTransfer: async ({ caller, body, idempotencyKey }) => {
      const { value, replayed } = await ledger.transfer(caller, body, { idempotencyKey });
      return created(
        transactionPath(caller, value.debit.accountId, value.debit.transactionId),
        presentTransfer(value),
        replayed,
      );
    },
    getTransfer: async ({ caller, params }) =>
      ok(presentTransfer(await ledger.getTransfer(caller, params.transferId!))),
    getBalanceAsOf: async ({ caller, params, query }) =>
      ok(presentBalanceAsOf(await history.balance(caller, params.accountId!, balanceQuery(caller, query)))),
    getBalanceHistory: async ({ caller, params, query }) =>
      ok(
        presentBalanceHistory(
          await history.balanceHistory(caller, params.accountId!, balanceHistoryQuery(caller, query)),
        ),
      ),
    getStatement: async ({ caller, params, query, mediaType }) => {
      if (mediaType === 'application/pdf') {
        const document = await history.statementDocument(caller, params.accountId!, statementQuery(caller, query));
        const { accountId, from, to } = document.statement;
        return {
          kind: 'document',
          contentType: 'application/pdf',
          // Drawn by a rendering worker, or answered from memory for an ended period (STATEMENT_RENDERING_BUSY when the instance has no room).
          body: await deps.statementPdfs.render(document),
          headers: { 'Content-Disposition': `inline; filename="${statementFileName(accountId, from, to, 'pdf')}"` },
        };
      }
      const statement = await history.statement(caller, params.accountId!, statementQuery(caller, query));
      if (mediaType === 'text/csv') {
        // Written a chunk of rows at a time, waiting on a slow client, never built whole.
        return {
          kind: 'stream',
          contentType: 'text/csv; charset=utf-8; header=present',
          headers: {
            'Content-Disposition': `attachment; filename="${statementFileName(statement.accountId, statement.from, statement.to, 'csv')}"`,
          },
          stream: async (write) => {
            for (const chunk of statementCsvChunks(statement)) if (!(await write(chunk))) return;
          },
        };
      }
      return { ...ok(presentStatement(statement)), longList: 'entries' };
    },
    exportLedgerEntries: async ({ caller, query, mediaType }) => {
      const format = mediaType === 'text/csv' ? 'csv' : 'ndjson';
      const exported = await history.exportLedger(caller, ledgerExportQuery(caller, query), format);
      return {
        kind: 'stream',
        contentType:
          format === 'csv' ? 'text/csv; charset=utf-8; header=present' : 'application/x-ndjson; charset=utf-8',
        headers: { 'Ledger-Export-To': exported.request.to.toISOString() },
        stream: async (write) => {
          try {
            if (format === 'csv' && !(await write(ledgerExportCsvHeader()))) return;
            await exported.run(write);
          } finally {
            exported.release();
          }
        },
      };
    },
    listEvents: async ({ caller, query }) => {
      const { filter, page } = listEventsQuery(caller, query);
      return ok(presentEventPage(await events.find(caller, filter, page)));
    },
    getEvent: async ({ caller, params }) => ok(presentEvent(await events.get(caller, params.eventId!))),
    listCustomerEvents: async ({ caller, params, query }) =>
      ok(
        presentRecordEvents(
          await events.recent(
            caller,
            { resourceType: 'customer', resourceId: params.customerId! },
            recordEventsQuery(caller, query),
          ),
        ),
      ),
    listAccountEvents: async ({ caller, params, query }) =>
      ok(
        presentRecordEvents(
          await events.recent(
            caller,
            { resourceType: 'account', resourceId: params.accountId! },
            recordEventsQuery(caller, query),
          ),
        ),
      ),
    createWebhookEndpoint: async ({ caller, body }) => {
      const { endpoint, secret } = await webhooks.create(caller, body);
      return created(
        `/${caller.environment}/webhook-endpoint/${endpoint.endpointId}`,
        {
          endpointId: endpoint.endpointId,
          url: endpoint.url,
          eventTypes: [...endpoint.eventTypes],
          secret,
          enabled: endpoint.enabled,
        },
        false,
      );
    },
    getWebhookEndpoint: async ({ caller, params }) =>
      ok(presentWebhookEndpoint(await webhooks.get(caller, params.endpointId!))),
    updateWebhookEndpoint: async ({ caller, params, body }) =>
      ok(presentWebhookEndpoint(await webhooks.update(caller, params.endpointId!, body))),
    deleteWebhookEndpoint: async ({ caller, params }) => {
      await webhooks.delete(caller, params.endpointId!);
      return ok({});
    },
    listWebhookAttempts: async ({ caller, params, query }) =>
      ok(
        presentWebhookAttempts(
          await webhooks.listAttempts(caller, params.endpointId!, listWebhookAttemptsQuery(caller, query)),
        ),
      ),
    rotateWebhookSecret: async ({ caller, params }) => {
      const { endpoint, secret } = await webhooks.rotateSecret(caller, params.endpointId!);
      return ok({ endpointId: endpoint.endpointId, secret, previousSecretExpiresAt: endpoint.previousSecretExpiresAt });
    },
    enableWebhookEndpoint: async ({ caller, params }) =>
      ok(presentWebhookEndpoint(await webhooks.setEnabled(caller, params.endpointId!, true))),
    disableWebhookEndpoint: async ({ caller, params }) =>
      ok(presentWebhookEndpoint(await webhooks.setEnabled(caller, params.endpointId!, false))),
    redeliverWebhook: async ({ caller, params }) => {
      await webhooks.redeliver(caller, params.endpointId!, params.eventId!);
      return ok({ endpointId: params.endpointId!.toLowerCase(), eventId: params.eventId!.toLowerCase() });
    },
    listAuditEvents: async ({ caller, query }) => {
      const { filter, page } = listAuditEventsQuery(caller, query);
      return ok(presentAuditPage(await audit.find(caller, filter, page)));
    },
    getClock: async ({ caller }) => ok(presentClock(await clock.read(caller))),
    advanceClock: async ({ caller, body }) => ok(presentClockAdvance(await clock.advance(caller, body))),
    listEndOfDay: async ({ caller, query }) =>
      ok(presentEndOfDay(await endOfDay.list(caller, endOfDayQuery(caller, query)))),
  };

  const table = deps.restRoutes ?? (REST_ROUTES as readonly RestRoute[]);
  for (const route of table) if (route.deprecated) checkDeprecation(route.operationId, route.deprecated);
  const paths = [...new Set(table.map((route) => route.path))];
  for (const path of paths) {
    const routes = table.filter((candidate) => candidate.path === path);
    const mounted = router.route(path).all(cors);
    for (const route of routes as readonly RestRoute[]) {
      const handler = endpoint(deps, readBody, route, handlers[route.operationId as OperationId]);
      if (route.method === 'GET') mounted.get(handler);
      else if (route.method === 'POST') mounted.post(handler);
      else if (route.method === 'PUT') mounted.put(handler);
      else mounted.delete(handler);
    }
    // Express answers HEAD with the GET handler, so HEAD is allowed wherever GET is.
    const allowed = routes.flatMap(({ method }) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
    mounted.all(() => {
      throw methodNotAllowed(allowed);
    });
  }

  return router;
}

function endpoint(deps: HttpDependencies, readBody: JsonBodyReader, route: RestRoute, operation: Operation) {
  const { family, method } = route;
  const withKey = takesIdempotencyKey(route);
  const announced = route.deprecated && deprecationHeaders(route.deprecated);
  return async (req: Request, res: Response) => {
    // On every answer of a deprecated operation, refusals too: set before anything can fail.
    if (announced) res.set(announced);
    const params = pathParams(req);
    const context = await authenticateRequest(req, res, params.environment ?? '', deps);
    res.locals.logger = context.logger;
    // GET and DELETE bodies have no meaning here (RFC 9110 §9.3.1, §9.3.5): never read, never parsed. A raw body is
    // the operation's to read, as a stream.
    const upload = route.rawBody ? rawBody(req, route.rawBody.mediaTypes) : undefined;
    const body = METHODS_WITH_BODY.has(method) && !route.rawBody ? await readBody(req, res) : undefined;
    const mediaType = negotiate(req, route.representations);
    const reply = await operation({
      caller: context.caller,
      params,
      query: queryParams(req),
      body,
      idempotencyKey: withKey ? req.get('idempotency-key') : undefined,
      ifMatch: req.get('if-match'),
      mediaType,
      upload,
    });
    const token = deps.readConsistency?.currentToken();
    const headers: Record<string, string> = {
      ...reply.headers,
      ...('etag' in reply && reply.etag !== undefined && { ETag: reply.etag }),
      ...(token !== undefined && { [CONSISTENCY_TOKEN_HEADER]: token }),
    };
    if (!('kind' in reply)) {
      // RFC 9110 §13.1.2: the client's copy is current; 304 with the tag and no body.
      if (method === 'GET' && reply.etag !== undefined && notModified(req.get('if-none-match'), reply.etag))
        sendNotModified(res, headers);
      else sendEnvelope(res, family, reply.status, { data: reply.data }, headers, reply.longList);
      return;
    }
    // Statements, exports and documents carry personal data: no shared cache or browser history may keep them either.
    res.status(200).setHeader('Cache-Control', 'no-store');
    if (!route.binaryAnswer) res.setHeader('Vary', 'Accept');
    for (const name in headers) res.setHeader(name, headers[name]!);
    res.setHeader('Content-Type', reply.contentType);
    if (reply.kind === 'document') {
      res.end(reply.body);
      return;
    }
    // A HEAD of a stored file (audited as a read, as its GET) sends the headers alone: nothing is read or opened.
    if (route.binaryAnswer && req.method === 'HEAD') {
      res.end();
      return;
    }
    await reply.stream((chunk) => writeChunk(res, chunk));
    if (!res.destroyed) res.end();
  };
}

/**
 * The representation `Accept` asks for among `representations` (the first when Accept is absent or `*\/*`);
 * NOT_ACCEPTABLE (406) when it names none of them. A route without representations answers its envelope.
 */
function negotiate(req: Request, representations: readonly string[] | undefined): string {
  if (!representations) return 'application/json';
  const chosen = req.accepts([...representations]);
  if (chosen === false) throw notAcceptable(representations);
  return chosen;
}

/**
 * A raw request body (`RestRoute.rawBody`): its media type must be one of `mediaTypes` (parameters ignored) and
 * uncompressed, else UNSUPPORTED_MEDIA_TYPE before a byte is read. Its bytes are handed over as they arrive, never
 * buffered here. When the operation stops reading early (a refusal), the rest is read and dropped, so the answer
 * still reaches the client and the connection stays usable; node's request time-out bounds how long that takes.
 */
function rawBody(req: Request, mediaTypes: readonly string[]): RawBody {
  const mediaType = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (!mediaTypes.includes(mediaType) || encoding !== 'identity')
    throw unsupportedMediaType(DOCUMENT_MEDIA_TYPE_MESSAGE);
  const length = req.get('content-length');
  return {
    mediaType,
    declaredLength: length === undefined || !/^\d+$/.test(length) ? undefined : Number(length),
    content: bodyPieces(req),
  };
}

/** The request's bytes as they arrive; `return()` (a reader that stops) drops the rest instead of destroying the socket. */
function bodyPieces(req: Request): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      let ended = req.readableEnded;
      let failed = false;
      let wake: (() => void) | undefined;
      const woken = () => {
        const resolve = wake;
        wake = undefined;
        resolve?.();
      };
      const onEnd = () => {
        ended = true;
        woken();
      };
      const onClose = () => {
        if (!ended) failed = true;
        woken();
      };
      const onError = () => {
        failed = true;
        woken();
      };
      req.on('readable', woken);
      req.on('end', onEnd);
      req.on('close', onClose);
      req.on('error', onError);
      const cleanup = () => {
        req.off('readable', woken);
        req.off('end', onEnd);
        req.off('close', onClose);
        req.off('error', onError);
      };
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          for (;;) {
            const piece = req.read() as Buffer | null;
            if (piece !== null) return { value: piece, done: false };
            if (ended || req.readableEnded) {
              cleanup();
              return { value: undefined, done: true };
            }
            if (failed) {
              cleanup();
              throw malformedRequest('The request body ended before its announced length.');
            }
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        },
        async return(): Promise<IteratorResult<Uint8Array>> {
          cleanup();
          // Read to the end and dropped: the answer goes out on a connection that stays in step.
          req.resume();
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/** Writes a chunk, waiting for the client to drain a full buffer; false once the connection has closed. */
function writeChunk(res: Response, chunk: string | Buffer): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (open: boolean) => () => {
      res.off('drain', drained);
      res.off('close', closed);
      resolve(open);
    };
    const drained = done(true);
    const closed = done(false);
    res.once('drain', drained);
    res.once('close', closed);
  });
}

/** The route's named segments; this API's routes have no wildcard (array-valued) parameters. */
function pathParams(req: Request): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name in req.params) {
    const value = req.params[name];
    if (typeof value === 'string') params[name] = value;
  }
  return params;
}

/** Single-valued query parameters; a repeated parameter keeps its first value. */
function queryParams(req: Request): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') query[name] = first;
  }
  return query;
}
