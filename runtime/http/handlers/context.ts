// What every verb handler receives (the request, what it is about, the
// served resource, the server's services) and the response side shared by
// the handlers: negotiation and writing in the negotiated encoding. Query
// parameters are in params.ts, request-body checks in body-check.ts.

import type { Context } from 'hono';
import type { MergeSchema, ResourceDef, SchemaValidator } from '../../../generated/api-types.ts';
import type { ServedResource } from '../../registry/served.ts';
import type { Obj } from '../../storage/interface.ts';
import type { CellFormatter } from '../../table/convert.ts';
import { negotiateObject, type NegotiateOptions, type Negotiated } from '../negotiate.ts';
import { encodeBody, send, sendBytes } from '../respond.ts';
import type { RequestInfo } from '../request-info.ts';
import type { UserInfo } from '../../auth/user.ts';
import type { AdmissionChain } from '../../admission/chain.ts';
import type { WritePolicyServices } from '../../registry/policy/index.ts';
import type { ManagedFieldsHook } from '../../registry/managed-fields.ts';
import type { Defaulter } from '../../registry/defaults.ts';
import type { ObjectCheckServices } from '../../registry/object-checks.ts';
import type { ProtobufSupport } from '../protobuf.ts';
import type { KubeProtobuf } from '../../codec/protobuf/index.ts';
import type { WatchGuard } from '../watch-guard.ts';
import { groupVersion as apiVersionOf } from '../../api/keys.ts';
import { prettyPrint } from '../pretty.ts';
import { GZIP_THRESHOLD_BYTES } from '../../api/k8s-names.ts';
import { requestHeader } from '../request-headers.ts';
import type { FeatureGates } from '../../features/feature-gates.ts';
import type { RequestRecord } from '../../api/request-record.ts';
import type { ServerMetrics } from '../../metrics/server-metrics.ts';

export interface ServerServices {
  validator(schema: string): Promise<SchemaValidator | undefined>;
  formatters: Record<string, CellFormatter>;
  mergeSchema: MergeSchema;
  /** Applies the spec's declared defaults. */
  defaulter: Defaulter;
  /** The embedded resources of a custom resource version's schema (coerced in request bodies). */
  embedded?: ObjectCheckServices['embedded'];
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
  /** The server's feature gates (--feature-gates). */
  features: FeatureGates;
  /** The server's metrics (watches count themselves in them); absent: none. */
  metrics?: ServerMetrics;
}

export interface RequestContext {
  c: Context;
  info: RequestInfo;
  query: URLSearchParams;
  res: ServedResource;
  user: UserInfo;
  services: ServerServices;
  warnings: string[];
  /** The request's record (audit ID, audit annotations), read when the request ends. */
  record: RequestRecord;
  /** When the request's deadline passes (ms since the epoch); undefined: none. */
  deadline?: number;
}

export function pretty(rc: RequestContext): boolean {
  return prettyPrint(rc.query, requestHeader(rc.c, 'user-agent'));
}

/** What every request to a served resource would work out the same way: kept per resource definition. */
interface ResourceFacts {
  groupVersion: string;
  /** The negotiation options of object and list reads under `support` (servers in one process may differ in it). */
  support?: ProtobufSupport;
  objectOptions?: NegotiateOptions;
  listOptions?: NegotiateOptions;
  /** The protobuf codec of the resource's kind under `support`, once it has been loaded. */
  codec?: KubeProtobuf;
}
const facts = new WeakMap<ResourceDef, ResourceFacts>();

function factsOf(def: ResourceDef): ResourceFacts {
  let f = facts.get(def);
  if (!f) facts.set(def, (f = { groupVersion: apiVersionOf(def.group, def.version) }));
  return f;
}

/** The group/version of the endpoint (`apps/v1`, `v1`). */
export function groupVersion(rc: RequestContext): string {
  return factsOf(rc.res.def).groupVersion;
}

export function negotiate(rc: RequestContext, list: boolean): Negotiated {
  const d = rc.res.def;
  const f = factsOf(d);
  const support = rc.services.protobuf;
  if (f.support !== support) {
    f.support = support;
    f.objectOptions = f.listOptions = f.codec = undefined;
  }
  let opts = list ? f.listOptions : f.objectOptions;
  if (!opts) {
    // which kinds have a protobuf form is fixed for the server's life (protobuf.ts)
    opts = { protobuf: support.supports(f.groupVersion, list ? d.listKind : d.kind), allowTransforms: true, list };
    if (list) f.listOptions = opts;
    else f.objectOptions = opts;
  }
  return negotiateObject(requestHeader(rc.c, 'accept'), opts);
}

/** The codec of the resource's kind at once when it is loaded (codecNow), kept per resource; undefined until then. */
export function codecNow(rc: RequestContext): KubeProtobuf | undefined {
  const f = factsOf(rc.res.def);
  const support = rc.services.protobuf;
  if (f.support === support && f.codec) return f.codec;
  const codec = support.codecNow?.(f.groupVersion, rc.res.def.kind);
  // kept only for the support the negotiation options were worked out under (a change resets both)
  if (codec && f.support === support) f.codec = codec;
  return codec;
}

/** The protobuf decoder for request bodies of this resource, when its kind has a protobuf form. */
export function bodyProtobuf(rc: RequestContext): ProtobufSupport | undefined {
  return rc.services.protobuf.supports(groupVersion(rc), rc.res.def.kind) ? rc.services.protobuf : undefined;
}

/**
 * Whether the answer is the objects' served JSON as it is: plain JSON of the
 * object itself (no Table or metadata-only form, no YAML, not pretty).
 */
export function servesEncodedJSON(rc: RequestContext, neg: Negotiated): boolean {
  return neg.encoding === 'json' && neg.target.as === 'object' && !pretty(rc);
}

/** Whether the answer is the object itself in protobuf (which the objects' served JSON can be turned into item by item). */
export function servesEncodedProtobuf(neg: Negotiated): boolean {
  return neg.encoding === 'protobuf' && neg.target.as === 'object';
}

/** Writes a body already serialized in the negotiated form. */
export function sendSerialized(rc: RequestContext, neg: Negotiated, body: string | Uint8Array, status = 200): Response {
  // Accept-Encoding matters only to a body that may pass the gzip threshold (a UTF-8 string is at most 3 bytes per unit)
  const mayGzip = (typeof body === 'string' ? body.length * 3 : body.byteLength) > GZIP_THRESHOLD_BYTES;
  const opts = { status, acceptEncoding: mayGzip ? requestHeader(rc.c, 'accept-encoding') : undefined, warnings: rc.warnings };
  return typeof body === 'string' ? send(body, neg.contentType, opts) : sendBytes(body, neg.contentType, opts);
}

/** Writes an object or list in the negotiated form (JSON, YAML, protobuf), Table conversions already applied. */
export async function sendNegotiated(rc: RequestContext, neg: Negotiated, value: unknown, status = 200): Promise<Response> {
  const opts = { status, acceptEncoding: requestHeader(rc.c, 'accept-encoding'), warnings: rc.warnings };
  if (neg.encoding === 'protobuf') {
    const codec = await rc.services.protobuf.codec(String((value as Obj).apiVersion), String((value as Obj).kind));
    return sendBytes(codec.encode(value as Obj), neg.contentType, opts);
  }
  return send(encodeBody(value, neg.encoding, pretty(rc)), neg.contentType, opts);
}
