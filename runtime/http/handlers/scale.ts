// The scale subresource over HTTP: decodes a Scale (PUT) or a patch (PATCH)
// and answers the Scale; the Scale view, the patch of the live Scale and the
// write of the replica count are the registry's scale store (registry/scale.ts).

import { contentTypeToPatchKind } from '../../patch/index.ts';
import type { Obj } from '../../storage/interface.ts';
import { decodeText, mediaType, readBodyBytes, readObjectBody } from '../body.ts';
import { errors } from '../../api/errors.ts';
import { type RequestContext, groupVersion, sendNegotiated } from './context.ts';
import { dryRun } from './params.ts';
import { ScaleStore, scalePathsOf, toScale } from '../../registry/scale.ts';
import { fieldManagerOf, sendCommitted, writeHooks } from './write-common.ts';
import { negotiateObject } from '../negotiate.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import { validateWriteOptions } from './write-options.ts';
import { requestHeader } from '../request-headers.ts';

function respondScale(rc: RequestContext, scale: Obj, status = 200): Promise<Response> {
  const neg = negotiateObject(requestHeader(rc.c, 'accept'), { protobuf: rc.services.protobuf.supports('autoscaling/v1', 'Scale'), allowTransforms: false, list: false });
  return sendNegotiated(rc, neg, scale, status);
}

export async function handleScale(rc: RequestContext): Promise<Response> {
  const scale = new ScaleStore(rc.res.store, scalePathsOf(rc.res.def), groupVersion(rc));
  if (rc.info.verb === 'get') return respondScale(rc, await scale.get(rc.info.namespace, rc.info.name));

  const patching = rc.info.verb !== 'update';
  validateWriteOptions(rc, patching ? 'PatchOptions' : 'UpdateOptions', patching && rc.query.has('force') ? [fieldErrors.forbidden('force', 'may not be specified for non-apply patch')] : []);
  const dry = dryRun(rc);
  const opts = { dryRun: dry, warnings: rc.warnings, hooks: writeHooks(rc, fieldManagerOf(rc), dry, { subresource: 'scale' }) };
  let obj: Obj;
  if (rc.info.verb === 'update') {
    const pb = rc.services.protobuf.supports('autoscaling/v1', 'Scale') ? rc.services.protobuf : undefined;
    const { value } = await readObjectBody(rc.c, 'Scale in version "v1" cannot be handled as a Scale', pb);
    const body = value as Obj;
    if ((body.kind ?? 'Scale') !== 'Scale') throw errors.badRequest(`${body.kind} in version "v1" cannot be handled as a Scale`);
    obj = await scale.update(rc.info.namespace, rc.info.name, () => body, opts);
  } else {
    const kind = contentTypeToPatchKind(mediaType(requestHeader(rc.c, 'content-type')));
    if (!kind || kind === 'apply')
      throw errors.unsupportedMediaType(requestHeader(rc.c, 'content-type') ?? '', ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
    const patch = decodeText(new TextDecoder().decode(await readBodyBytes(rc.c)), 'json', 'error decoding patch').value;
    obj = await scale.patch(rc.info.namespace, rc.info.name, kind, patch, rc.services.mergeSchema, opts);
  }
  const view = toScale(await scale.inVersion(obj), scale.paths);
  return sendCommitted(rc, view, 200, () => respondScale(rc, view));
}
