// PATCH: decodes the request — the patch type from Content-Type (JSON patch,
// merge patch, strategic merge patch for built-in kinds only, or
// server-side apply), the patch document, force and the field manager — and
// answers what the registry's patch or apply operation stored (201 when an
// apply created the object). Reading the live object, patching it, the
// write pipeline and the retries on conflicts are the registry's
// (RegistryStore.patch() and apply()).

import { acceptedPatchTypes, contentTypeToPatchKind } from '../../patch/index.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import type { Obj } from '../../storage/interface.ts';
import { auditRequestObject, decodeText, mediaType, readBodyBytes } from '../body.ts';
import { errors } from '../../api/errors.ts';
import { type RequestContext, negotiate } from './context.ts';
import { boolParam, dryRun, fieldValidation } from './params.ts';
import { fieldManagerOf, respondObject, writeHooks } from './write-common.ts';
import { validateWriteOptions } from './write-options.ts';
import { requestHeader } from '../request-headers.ts';

export async function handlePatch(rc: RequestContext): Promise<Response> {
  const { def } = rc.res;
  negotiate(rc, false);
  const ct = requestHeader(rc.c, 'content-type') ?? '';
  const kind = contentTypeToPatchKind(mediaType(ct));
  const accepted = acceptedPatchTypes(def.custom);
  if (!kind || (kind === 'strategic' && def.custom)) {
    throw errors.unsupportedMediaType(ct, accepted);
  }
  // any value of force sets it (even false): only an apply may have it; an apply must name its manager
  const first: FieldError[] = [];
  if (kind !== 'apply' && rc.query.has('force')) first.push(fieldErrors.forbidden('force', 'may not be specified for non-apply patch'));
  if (kind === 'apply' && !rc.query.get('fieldManager')) first.push(fieldErrors.required('fieldManager', 'is required for apply patch'));
  validateWriteOptions(rc, 'PatchOptions', first);
  const bytes = await readBodyBytes(rc.c);
  const text = new TextDecoder().decode(bytes);
  const parsed = decodeText(text, kind === 'apply' ? 'yaml' : 'json', kind === 'apply' ? 'error decoding YAML' : 'error decoding patch');
  const body = parsed.value;
  // the patch itself is the audit event's requestObject (upstream's LogRequestPatch), no objectRef facts
  auditRequestObject(rc.c, body, false);
  if (kind !== 'json' && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw errors.badRequest('error decoding patch: the patch must be a JSON object');
  }
  const dry = dryRun(rc);
  const force = boolParam(rc, 'force') ?? false;
  const manager = fieldManagerOf(rc);
  const subresource = rc.info.subresource || undefined;
  const checks = { def, fieldValidation: fieldValidation(rc), duplicates: parsed.duplicates };
  const opts = {
    dryRun: dry,
    subresource,
    warnings: rc.warnings,
    services: rc.services,
    hooks: writeHooks(rc, manager, dry, { subresource }),
  };
  const { namespace, name } = rc.info;
  if (kind === 'apply') {
    const { obj, created } = await rc.res.store.apply(namespace, name, { ...checks, config: body as Obj, manager, force }, opts);
    return respondObject(rc, obj, created ? 201 : 200);
  }
  return respondObject(rc, await rc.res.store.patch(namespace, name, { ...checks, type: kind, patch: body }, opts), 200);
}
