// POST .../serviceaccounts/{name}/token (TokenRequest): decodes the body, has
// the service-account token issuer make a token bound to the account (and to
// a Pod, Secret or Node when the request names one), answers 201 with the
// token and its expiry, after both halves of admission saw the request.
// Nothing is stored. The issuing rules live in
// runtime/auth/serviceaccount/token-request.ts.

import type { AdmissionAttributes } from '../../admission/chain.ts';
import { errors } from '../../api/errors.ts';
import type { TokenRequestResult } from '../../auth/serviceaccount/token-request.ts';
import { readObjectBody } from '../body.ts';
import { sendJSON } from '../respond.ts';
import { type RequestContext, pretty } from './context.ts';
import { validateWriteOptions } from './write-options.ts';
import { requestHeader } from '../request-headers.ts';

/** Issues tokens for service accounts (server/start.ts binds it to the issuer and the stores). */
export interface TokenRequestIssuer {
  create(namespace: string, serviceAccount: string, body: Record<string, unknown>): Promise<TokenRequestResult>;
}

const WHAT = 'TokenRequest in version "v1" cannot be handled as a TokenRequest';

export async function handleTokenRequest(rc: RequestContext, issuer: TokenRequestIssuer | undefined): Promise<Response> {
  if (!issuer) throw errors.methodNotAllowed();
  validateWriteOptions(rc, 'CreateOptions');
  const { value } = await readObjectBody(rc.c, WHAT);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw errors.badRequest(`${WHAT}: the body is not an object`);
  const body = value as Record<string, unknown>;
  if ((body.kind !== undefined && body.kind !== 'TokenRequest') || (body.apiVersion !== undefined && body.apiVersion !== 'authentication.k8s.io/v1')) {
    throw errors.badRequest(`${WHAT}: expected apiVersion "authentication.k8s.io/v1" and kind "TokenRequest", got ${JSON.stringify(`${body.apiVersion ?? ''}, Kind=${body.kind ?? ''}`)}`);
  }
  // admission sees the request (NodeRestriction: a node's token must be bound to a pod on it)
  const attrs: AdmissionAttributes = {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    kind: 'TokenRequest',
    resource: 'serviceaccounts',
    subresource: 'token',
    namespace: rc.info.namespace,
    name: rc.info.name,
    object: body,
    oldObject: null,
    dryRun: rc.query.has('dryRun'),
    user: rc.user,
  };
  await rc.services.admission.admit(attrs);
  await rc.services.admission.validate(attrs);
  const { object, warnings } = await issuer.create(rc.info.namespace, rc.info.name, body);
  return sendJSON(object, { status: 201, warnings: [...rc.warnings, ...warnings], acceptEncoding: requestHeader(rc.c, 'accept-encoding'), pretty: pretty(rc) });
}
