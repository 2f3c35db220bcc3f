// The scale subresource: reads and writes an autoscaling/v1 Scale view of a
// workload (Deployment, ReplicaSet, StatefulSet, or a custom resource with
// CRD scale paths). GET builds the Scale; PUT and PATCH change only the
// replica count of the parent object, with the Scale's resourceVersion as a
// precondition.

import { applyPatch, contentTypeToPatchKind, PatchError } from '../../patch/index.ts';
import { labelSelectorString } from '../../api/label-selector.ts';
import type { Obj } from '../../storage/interface.ts';
import { decodeText, mediaType, readBodyBytes, readObjectBody } from '../body.ts';
import { ApiError, errors } from '../../api/errors.ts';
import { type RequestContext, sendNegotiated } from './context.ts';
import { dryRun } from './params.ts';
import { valueAt } from '../../registry/object-checks.ts';
import { fieldManagerOf, sendCommitted, writeHooks } from './write-common.ts';
import { negotiateObject } from '../negotiate.ts';
import { fieldErrors } from '../../api/field-errors.ts';

const SCALE_SCHEMA = 'io.k8s.api.autoscaling.v1.Scale';

interface ScalePaths { spec: string; status: string; selector?: string }

function pathsOf(rc: RequestContext): ScalePaths {
  const sub = rc.res.def.subresources.find((s) => s.name === 'scale');
  if (sub?.scale) return { spec: sub.scale.specReplicasPath, status: sub.scale.statusReplicasPath, selector: sub.scale.labelSelectorPath };
  return { spec: '.spec.replicas', status: '.status.replicas' };
}

function setAt(obj: Obj, path: string, value: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let cur: any = obj;
  for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {});
  cur[parts[parts.length - 1]] = value;
}

export function toScale(obj: Obj, paths: ScalePaths): Obj {
  const md = obj.metadata;
  const selector = paths.selector
    ? String(valueAt(obj, paths.selector.replace(/^\./, '')) ?? '')
    : labelSelectorString(obj.spec?.selector);
  const status: Obj = { replicas: Number(valueAt(obj, paths.status.replace(/^\./, '')) ?? 0) };
  if (selector) status.selector = selector;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: md.name, namespace: md.namespace, uid: md.uid, resourceVersion: md.resourceVersion, creationTimestamp: md.creationTimestamp,
    },
    spec: { replicas: Number(valueAt(obj, paths.spec.replace(/^\./, '')) ?? 0) },
    status,
  };
}

function respondScale(rc: RequestContext, obj: Obj, status = 200): Promise<Response> {
  const neg = negotiateObject(rc.c.req.header('accept'), { protobuf: rc.services.protobuf.supports('autoscaling/v1', 'Scale'), allowTransforms: false, list: false });
  return sendNegotiated(rc, neg, toScale(obj, pathsOf(rc)), status);
}

export async function handleScale(rc: RequestContext): Promise<Response> {
  const { store } = rc.res;
  const paths = pathsOf(rc);
  if (rc.info.verb === 'get') return respondScale(rc, await store.get(rc.info.namespace, rc.info.name));

  let wanted: (liveScale: Obj) => Obj;
  if (rc.info.verb === 'update') {
    const pb = rc.services.protobuf.supports('autoscaling/v1', 'Scale') ? rc.services.protobuf : undefined;
    const { value } = await readObjectBody(rc.c, 'Scale in version "v1" cannot be handled as a Scale', pb);
    const body = value as Obj;
    if ((body.kind ?? 'Scale') !== 'Scale') throw errors.badRequest(`${body.kind} in version "v1" cannot be handled as a Scale`);
    wanted = () => body;
  } else {
    const kind = contentTypeToPatchKind(mediaType(rc.c.req.header('content-type')));
    if (!kind || kind === 'apply') throw errors.unsupportedMediaType(rc.c.req.header('content-type') ?? '', ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
    const patch = decodeText(new TextDecoder().decode(await readBodyBytes(rc.c)), 'json', 'error decoding patch').value;
    wanted = (liveScale) => {
      try {
        return applyPatch(kind, liveScale as never, patch, { schema: rc.services.mergeSchema, typeName: SCALE_SCHEMA }) as Obj;
      } catch (err) {
        if (err instanceof PatchError) throw new ApiError(err.code, err.reason, err.message);
        throw err;
      }
    };
  }
  const dry = dryRun(rc);
  const { obj } = await store.update(rc.info.namespace, rc.info.name, (live) => {
    if (!live) throw errors.notFound(store.gr, rc.info.name);
    const scale = wanted(toScale(live, paths));
    const rv = scale.metadata?.resourceVersion;
    if (rv && rv !== live.metadata.resourceVersion) throw errors.conflict(store.gr, rc.info.name, 'the object has been modified; please apply your changes to the latest version and try again');
    const replicas = scale.spec?.replicas;
    if (replicas !== undefined && (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)) {
      throw errors.invalid({ group: 'autoscaling', kind: 'Scale' }, rc.info.name, [fieldErrors.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
    }
    const next = structuredClone(live);
    setAt(next, paths.spec, replicas ?? 0);
    return next;
  }, { dryRun: dry, subresource: 'scale', warnings: rc.warnings, hooks: writeHooks(rc, 'UPDATE', fieldManagerOf(rc), dry, { subresource: 'scale' }) });
  return sendCommitted(rc, toScale(obj, paths), 200, () => respondScale(rc, obj));
}
