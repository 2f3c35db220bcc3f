// DELETE of one object and of a collection (selectors; the deleted objects
// are returned as a list). One object: a Status once it is gone, or the
// deleted object for the kinds whose upstream store returns it
// (registry/deleted-object.ts); the object when its deletion is pending on
// finalizers; 200, or 202 for a pending delete asked with the old
// orphanDependents=false.
// DeleteOptions come from the body or the query; the delete itself, with
// admission as the requesting user, is the registry's (RegistryStore.delete()
// and deleteCollection()).

import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import type { DeleteOptions } from '../../registry/store.ts';
import type { Obj } from '../../storage/interface.ts';
import { decodeText, mediaType, readBodyBytes } from '../body.ts';
import { ProtobufError } from '../../codec/protobuf/errors.ts';
import { MEDIA_PROTOBUF } from '../../api/k8s-names.ts';
import { errors } from '../../api/errors.ts';
import { type RequestContext, negotiate, sendNegotiated } from './context.ts';
import { boolParam, intParam, predicate } from './params.ts';
import { dryRunErrors, optionsInvalid } from './write-options.ts';
import { respondObject, sendCommitted, writeHooks } from './write-common.ts';
import { deletedStatus, returnsDeletedObject } from '../../registry/deleted-object.ts';
import { groupVersion } from '../../api/keys.ts';
import type { WriteHooks } from '../../registry/write-services.ts';
import { requestHeader } from '../request-headers.ts';

/** The hooks of a delete: admission as the request's user, for the object named (none for a collection). */
function deleteHooks(rc: RequestContext, name: string, opts: DeleteOptions): WriteHooks {
  return writeHooks(rc, '', !!opts.dryRun, { name, options: deleteOptionFields(opts) });
}

/** The DeleteOptions admission is told: what the client sent (body or query), dryRun as its list. */
function deleteOptionFields(opts: DeleteOptions): Obj {
  const o: Obj = {};
  if (opts.gracePeriodSeconds !== undefined) o.gracePeriodSeconds = opts.gracePeriodSeconds;
  if (opts.preconditions) o.preconditions = opts.preconditions;
  if (opts.orphanDependents !== undefined) o.orphanDependents = opts.orphanDependents;
  if (opts.propagationPolicy !== undefined) o.propagationPolicy = opts.propagationPolicy;
  // the only value dryRun may have (others were refused)
  if (opts.dryRun) o.dryRun = ['All'];
  return o;
}

/** In upstream's order (its supported values also list "nil"). */
const POLICIES = ['Foreground', 'Background', 'Orphan'];

export async function deleteOptions(rc: RequestContext): Promise<DeleteOptions> {
  const bytes = await readBodyBytes(rc.c);
  let body: Obj = {};
  if (bytes.byteLength && mediaType(requestHeader(rc.c, 'content-type')) === MEDIA_PROTOBUF) {
    try {
      body = await rc.services.protobuf.decode(bytes);
    } catch (err) {
      if (err instanceof ProtobufError) throw errors.badRequest(`DeleteOptions: ${err.message}`);
      throw err;
    }
  } else if (bytes.byteLength) {
    const parsed = decodeText(new TextDecoder().decode(bytes), 'json', 'DeleteOptions');
    if (parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) body = parsed.value as Obj;
    else throw errors.badRequest('DeleteOptions: the body must be an object');
    if (body.kind !== undefined && body.kind !== 'DeleteOptions') {
      throw errors.badRequest(`DeleteOptions: the kind in the data (${body.kind}) does not match the expected kind (DeleteOptions)`);
    }
  }
  const opts: DeleteOptions = {};
  const grace = body.gracePeriodSeconds ?? intParam(rc, 'gracePeriodSeconds');
  if (grace !== undefined) {
    // an int64 (a fraction or a number beyond int64 does not decode upstream)
    if (typeof grace !== 'number' || !Number.isInteger(grace) || Math.abs(grace) > 2 ** 63) throw errors.badRequest('DeleteOptions: gracePeriodSeconds must be an integer');
    opts.gracePeriodSeconds = grace;
  }
  // upstream's ValidateDeleteOptions: every error at once, in one 422 on DeleteOptions
  const errs: FieldError[] = [];
  let policy = body.propagationPolicy ?? rc.query.get('propagationPolicy') ?? undefined;
  const orphan = body.orphanDependents ?? boolParam(rc, 'orphanDependents');
  if (orphan !== undefined && policy !== undefined) errs.push(fieldErrors.invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  if (policy !== undefined && !POLICIES.includes(policy)) errs.push(fieldErrors.notSupported('propagationPolicy', policy, [...POLICIES, 'nil']));
  const dryValues: string[] = [...(Array.isArray(body.dryRun) ? body.dryRun : []), ...rc.query.getAll('dryRun')];
  errs.push(...dryRunErrors(dryValues));
  if (errs.length) optionsInvalid('DeleteOptions', errs);
  if (orphan === true) policy = 'Orphan';
  if (orphan !== undefined) opts.orphanDependents = orphan;
  if (policy !== undefined) opts.propagationPolicy = policy;
  if (body.preconditions) opts.preconditions = { uid: body.preconditions.uid, resourceVersion: body.preconditions.resourceVersion };
  opts.dryRun = dryValues.length > 0;
  return opts;
}

export async function handleDelete(rc: RequestContext): Promise<Response> {
  negotiate(rc, false);
  const opts = await deleteOptions(rc);
  const hooks = deleteHooks(rc, rc.info.name, opts);
  const { obj, deleted } = await rc.res.store.delete(rc.info.namespace, rc.info.name, { ...opts, hooks });
  // as kube-apiserver: 202 only for a pending delete that asked for cascading with the old
  // orphanDependents=false; a delete held by finalizers is otherwise 200 with the object
  const code = !deleted && opts.orphanDependents === false ? 202 : 200;
  if (!deleted || returnsDeletedObject(rc.res.def)) return respondObject(rc, obj, code);
  // a Status is sent as it is whatever the client asked to see objects as (Table, metadata)
  const status = deletedStatus(rc.res.def, obj);
  return sendCommitted(rc, status, code, () => {
    const neg = negotiate(rc, false);
    return sendNegotiated(rc, { ...neg, target: { as: 'object' }, contentType: neg.contentType.split(';')[0] }, status, code);
  });
}

export async function handleDeleteCollection(rc: RequestContext): Promise<Response> {
  // never across namespaces: the router only sends namespaced collections here (defence in depth)
  if (rc.res.def.namespaced && !rc.info.namespace) throw errors.methodNotAllowed();
  const neg = negotiate(rc, true);
  const opts = await deleteOptions(rc);
  const pred = predicate(rc);
  const { store, def } = rc.res;
  // admission is told no name for the objects of a collection, as upstream
  const hooks = deleteHooks(rc, '', opts);
  const { items, resourceVersion } = await store.deleteCollection(rc.info.namespace, pred, { ...opts, hooks });
  const apiVersion = groupVersion(def.group, def.version);
  const body = {
    kind: def.listKind,
    apiVersion,
    metadata: { resourceVersion },
    items: await store.allInVersion(items, apiVersion),
  };
  return sendCommitted(rc, body, 200, () => sendNegotiated(rc, neg, body));
}
