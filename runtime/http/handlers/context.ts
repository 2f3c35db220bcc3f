// What every verb handler receives (the request, what it is about, the
// served resource, the server's services) and the response side shared by
// the handlers: negotiation and writing in the negotiated encoding. Query
// parameters are in params.ts, request-body checks in body-check.ts.

import type { Context } from 'hono';
import type { MergeSchema, SchemaValidator } from '../../../generated/api-types.ts';
import type { ServedResource } from '../../registry/served.ts';
import type { Obj } from '../../storage/interface.ts';
import type { CellFormatter } from '../../table/convert.ts';
import { negotiateObject, type Negotiated } from '../negotiate.ts';
import { encodeBody, send, sendBytes } from '../respond.ts';
import type { RequestInfo } from '../request-info.ts';
import type { UserInfo } from '../../auth/user.ts';
import type { AdmissionChain } from '../../admission/chain.ts';
import type { WritePolicyServices } from '../../registry/policy/index.ts';
import type { ManagedFieldsHook } from '../../registry/managed-fields.ts';
import type { Defaulter } from '../../registry/defaults.ts';
import type { ProtobufSupport } from '../protobuf.ts';
import type { WatchGuard } from '../watch-guard.ts';
import { groupVersion as apiVersionOf } from '../../api/keys.ts';

export interface ServerServices {
  validator(schema: string): Promise<SchemaValidator | undefined>;
  formatters: Record<string, CellFormatter>;
  mergeSchema: MergeSchema;
  /** Applies the spec's declared defaults. */
  defaulter: Defaulter;
  admission: AdmissionChain;
  managedFields: ManagedFieldsHook;
  /** What write policies ask (RBAC's escalation prevention); absent: none runs. */
  writePolicy?: WritePolicyServices;
  /** Longest a watch may stay open when the client gives no timeout (seconds); jittered up to twice. */
  minRequestTimeoutSeconds: number;
  /** Which kinds have a protobuf form, and the codec. */
  protobuf: ProtobufSupport;
  /** Limits on open watches and on clients that stop taking their data. */
  watches: WatchGuard;
}

export interface RequestContext {
  c: Context;
  info: RequestInfo;
  query: URLSearchParams;
  res: ServedResource;
  user: UserInfo;
  services: ServerServices;
  warnings: string[];
}

export function pretty(rc: RequestContext): boolean {
  const p = rc.query.get('pretty');
  if (p === 'true' || p === '1') return true;
  if (p === 'false' || p === '0') return false;
  return /\b(curl|Wget)\//.test(rc.c.req.header('user-agent') ?? '');
}

/** The group/version of the endpoint (`apps/v1`, `v1`). */
export function groupVersion(rc: RequestContext): string {
  const d = rc.res.def;
  return apiVersionOf(d.group, d.version);
}

export function negotiate(rc: RequestContext, list: boolean): Negotiated {
  const d = rc.res.def;
  return negotiateObject(rc.c.req.header('accept'), {
    protobuf: rc.services.protobuf.supports(groupVersion(rc), list ? d.listKind : d.kind),
    allowTransforms: true,
    list,
  });
}

/** The protobuf decoder for request bodies of this resource, when its kind has a protobuf form. */
export function bodyProtobuf(rc: RequestContext): ProtobufSupport | undefined {
  return rc.services.protobuf.supports(groupVersion(rc), rc.res.def.kind) ? rc.services.protobuf : undefined;
}

/** Writes an object or list in the negotiated form (JSON, YAML, protobuf), Table conversions already applied. */
export async function sendNegotiated(rc: RequestContext, neg: Negotiated, value: unknown, status = 200): Promise<Response> {
  const opts = { status, acceptEncoding: rc.c.req.header('accept-encoding'), warnings: rc.warnings };
  if (neg.encoding === 'protobuf') {
    const codec = await rc.services.protobuf.codec(String((value as Obj).apiVersion), String((value as Obj).kind));
    return sendBytes(codec.encode(value as Obj), neg.contentType, opts);
  }
  return send(encodeBody(value, neg.encoding, pretty(rc)), neg.contentType, opts);
}
