// The request body of a create on a pod subresource (an Eviction, a
// Binding): JSON, YAML or protobuf, an object of the expected kind and
// version, in the request's namespace; both admission halves see it.

import type { AdmissionAttributes } from '../../../admission/chain.ts';
import { errors } from '../../../api/errors.ts';
import type { Obj } from '../../../storage/interface.ts';
import { readObjectBody } from '../../body.ts';
import type { RequestContext } from '../context.ts';
import { dryRun } from '../params.ts';
import { validateWriteOptions } from '../write-options.ts';

export interface SubresourceKind {
  group: string;
  version: string;
  kind: string;
  /** Other apiVersions the body may have (an Eviction may also be policy/v1beta1). */
  alsoAccepted?: string[];
}

/** Reads and checks the body, then runs admission on it; returns the object. */
export async function admittedBody(rc: RequestContext, want: SubresourceKind): Promise<Obj> {
  validateWriteOptions(rc, 'CreateOptions');
  const apiVersion = want.group ? `${want.group}/${want.version}` : want.version;
  const what = `${want.kind} in version "${want.version}" cannot be handled as a ${want.kind}`;
  const pb = rc.services.protobuf.supports(apiVersion, want.kind) ? rc.services.protobuf : undefined;
  const { value } = await readObjectBody(rc.c, what, pb);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw errors.badRequest(`${what}: the body is not an object`);
  const obj = value as Obj;
  const versionOK = obj.apiVersion === undefined || obj.apiVersion === apiVersion || (want.alsoAccepted ?? []).includes(String(obj.apiVersion));
  if ((obj.kind !== undefined && obj.kind !== want.kind) || !versionOK) {
    throw errors.badRequest(
      `${what}: expected apiVersion ${JSON.stringify(apiVersion)} and kind ${JSON.stringify(want.kind)}, got ${JSON.stringify(`${obj.apiVersion ?? ''}, Kind=${obj.kind ?? ''}`)}`,
    );
  }
  const md: Obj = (obj.metadata ??= {});
  if (md.namespace && md.namespace !== rc.info.namespace) throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  if (rc.info.namespace) md.namespace = rc.info.namespace;
  const attrs: AdmissionAttributes = {
    operation: 'CREATE',
    group: rc.res.def.group,
    version: rc.res.def.version,
    kind: want.kind,
    resource: rc.res.def.resource,
    subresource: rc.info.subresource,
    namespace: rc.info.namespace,
    name: rc.info.name || String(md.name ?? ''),
    object: obj,
    oldObject: null,
    dryRun: dryRun(rc),
    user: rc.user,
  };
  await rc.services.admission.admit(attrs);
  await rc.services.admission.validate(attrs);
  return obj;
}
