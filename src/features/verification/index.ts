/**
 * The verification feature's public face (docs/adr/0101): a customer's verification (KYC for a person, KYB for a
 * business): its status table, requirements derived on read, checks through a provider port (the sandbox now),
 * the job that applies their results, people's decisions, the REST routes and the GraphQL resolvers.
 */
export { VerificationService, type Verification } from './verification.service.js';
export type { VerificationStore, VerificationHttpStore, VerificationCheck } from './ports.js';
export { PrismaVerificationStore } from './verification.store.js';
export { PrismaVerificationHttpStore } from './verification-http.store.js';
export { httpProvider, type SubmittingProvider } from './http-provider.js';
export { VerificationHttpService, type SealedFieldOpener } from './verification-http.service.js';
export { VerificationGates } from './verification-gates.js';
export { sandboxProvider, type VerificationProvider } from './providers.js';
export { startVerificationChecks } from './verification-checks.job.js';
export { VERIFICATION_ROUTES } from './verification.rest.js';
export { DOCUMENT_ROUTES, DOCUMENT_MEDIA_TYPE_MESSAGE } from './verification-documents.rest.js';
export { VerificationDocumentService, type DocumentUploadInput } from './verification-documents.service.js';
export { PrismaVerificationDocumentStore, PrismaSealedDocumentStore } from './verification-documents.store.js';
export { documentAnswer, documentFileName, presentDocument } from './verification-documents.presenter.js';
export { DOCUMENT_LIMITS } from './verification-documents.schemas.js';
export {
  DOCUMENT_MEDIA_TYPES,
  type DocumentBinding,
  type DocumentMediaType,
  type DocumentSealer,
  type SealedChunk,
  type VerificationDocument,
  type VerificationDocumentStore,
} from './ports.js';
export { presentVerification, verificationAnswer, verificationCheckAnswer } from './verification.presenter.js';
export { verificationResolvers } from './verification.resolvers.js';
export { VERIFICATION_STATUSES, type VerificationStatus } from './verification-status.js';
