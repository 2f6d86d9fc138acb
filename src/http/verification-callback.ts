import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { isDomainError, verificationProviderNotConfigured } from '../domain/errors.js';
import type { HttpDependencies } from './dependencies.js';
import { sendEnvelope } from '../rest/envelope.js';
import { toHttpFailure } from '../rest/error-mapping.js';

/** A callback's body is small (a reference, an outcome, reason codes): more is refused unread (413). */
export const CALLBACK_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * POST /{environment}/verification/callback (docs/adr/0104, docs/verification-providers.md): the verification
 * vendor's result. No bearer token: a vendor calls it, and its Standard Webhooks signature over the raw body (hence
 * express.raw on this route alone) is what proves it. Answers in the customer envelope: 200 `{applied, checkId,
 * status}`, 200 `{duplicate: true}` for a webhook-id taken before (nothing applied twice), 401 for a bad signature,
 * 404 for an unknown check, 409 for a check that has its result.
 */
export function verificationCallbackRouter(deps: Pick<HttpDependencies, 'services' | 'environments'>): Router {
  const router = Router();
  const raw = express.raw({ type: () => true, limit: CALLBACK_BODY_LIMIT_BYTES });
  router.post('/:environment/verification/callback', raw, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const environment = String(req.params.environment);
      // An environment that is not configured has no checks: as unknown as any other path.
      if (!deps.environments.has(environment)) return next();
      const callbacks = deps.services.verificationCallbacks;
      if (callbacks === null) throw verificationProviderNotConfigured();
      const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
      const answer = await callbacks.receiveCallback(environment, body, {
        'webhook-id': req.get('webhook-id'),
        'webhook-timestamp': req.get('webhook-timestamp'),
        'webhook-signature': req.get('webhook-signature'),
      });
      const data =
        answer.outcome === 'duplicate'
          ? { applied: false, duplicate: true }
          : { applied: true, duplicate: false, checkId: answer.checkId, status: answer.status };
      sendEnvelope(res, 'customer', 200, { data });
    } catch (error) {
      if (!isDomainError(error)) return next(error);
      const failure = toHttpFailure(error);
      // A vendor is not a bearer-token client: a bad signature is 401 without a WWW-Authenticate challenge.
      const status = error.code === 'VERIFICATION_CALLBACK_SIGNATURE_INVALID' ? 401 : failure.status;
      sendEnvelope(res, 'customer', status, { error: failure.body });
    }
  });
  return router;
}
