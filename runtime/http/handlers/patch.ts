// PATCH: the patch type comes from Content-Type — JSON patch, merge patch,
// strategic merge patch (built-in kinds only), or server-side apply. The
// patch is applied to the live object inside the store's read-modify-write,
// so it is retried on a concurrent write; a resourceVersion in the patch is a
// precondition. Apply on a missing object creates it.

import { acceptedPatchTypes, applyPatch, contentTypeToPatchKind, PatchError } from '../../patch/index.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import type { Obj } from '../../storage/interface.ts';
import { decodeText, mediaType, readBodyBytes } from '../body.ts';
import { ApiError, errors } from '../../api/errors.ts';
import { type RequestContext, negotiate } from './context.ts';
import { boolParam, dryRun } from './params.ts';
import { checkBody } from './body-check.ts';
import { fieldManagerOf, respondObject, writeHooks } from './write-common.ts';

function toApi(err: unknown): unknown {
  if (err instanceof PatchError) return new ApiError(err.code, err.reason, err.message, err.causes ? { causes: err.causes } : err.code === 422 ? {} : undefined);
  return err;
}

export async function handlePatch(rc: RequestContext): Promise<Response> {
  const { def } = rc.res;
  negotiate(rc, false);
  const ct = rc.c.req.header('content-type') ?? '';
  const kind = contentTypeToPatchKind(mediaType(ct));
  const accepted = acceptedPatchTypes(def.custom);
  if (!kind || (kind === 'strategic' && def.custom)) {
    throw errors.unsupportedMediaType(ct, accepted);
  }
  const bytes = await readBodyBytes(rc.c);
  const text = new TextDecoder().decode(bytes);
  const parsed = decodeText(text, kind === 'apply' ? 'yaml' : 'json', kind === 'apply' ? 'error decoding YAML' : 'error decoding patch');
  const body = parsed.value;
  if (kind !== 'json' && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw errors.badRequest('error decoding patch: the patch must be a JSON object');
  }
  const dry = dryRun(rc);
  const force = boolParam(rc, 'force') ?? false;
  if (force && kind !== 'apply') {
    throw errors.invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [fieldErrors.forbidden('force', 'may not be specified for non-apply patch')]);
  }
  const manager = fieldManagerOf(rc, kind === 'apply');
  const sub = rc.info.subresource || undefined;

  const transform = async (live: Obj | null): Promise<Obj> => {
    if (kind === 'apply') {
      const config = body as Obj;
      if (config.metadata?.managedFields !== undefined) {
        throw errors.badRequest('metadata.managedFields must be nil');
      }
      // the configuration is merged as sent (defaults would make the applier own them)
      await checkBody(rc, config, parsed.duplicates, { defaults: false });
      let merged: Obj;
      try {
        merged = rc.services.managedFields.apply(rc.res, live, config, manager, force, sub);
      } catch (err) {
        throw toApi(err);
      }
      rc.services.defaulter.apply(rc.res.def.schema, merged);
      return merged;
    }
    if (!live) throw errors.notFound(rc.res.store.gr, rc.info.name);
    let patched: Obj;
    try {
      patched = applyPatch(kind, live as never, body, { schema: rc.services.mergeSchema, typeName: rc.res.storageDef.schema, custom: def.custom }) as Obj;
    } catch (err) {
      throw toApi(err);
    }
    await checkBody(rc, patched, kind === 'json' ? [] : parsed.duplicates);
    return patched;
  };

  const { obj, created } = await rc.res.store.update(rc.info.namespace, rc.info.name, transform, {
    dryRun: dry, subresource: sub, createIfMissing: kind === 'apply' && !sub, forceAllowCreate: kind === 'apply',
    warnings: rc.warnings,
    hooks: writeHooks(rc, 'UPDATE', manager, dry, { subresource: sub, skipManagedFields: kind === 'apply' }),
  });
  return respondObject(rc, obj, created ? 201 : 200);
}
