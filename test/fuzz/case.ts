// What one fuzz case is (a request and the facts the oracle needs about it)
// and what generators get to build one (the run's namespace, sentinel names,
// patch targets, the protobuf codec), plus helpers shared by the generators.

import type { KubeProtobuf } from '../../runtime/codec/protobuf/index.ts';
import type { FuzzKind } from './kinds.ts';
import type { Rng } from './rng.ts';

export interface FuzzCase {
  index: number;
  /** The generator and variant, e.g. `yaml/laughs`. */
  generator: string;
  /** What was done to the request, for the report. */
  note: string;
  method: string;
  /** The raw request target, sent as is. */
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** A watch: judged on the response head, then closed. */
  stream?: boolean;
  /** Could reach sentinel objects if the server routed it wrongly: check them right after. */
  risky?: boolean;
  /** The HTTP layer may refuse this request outright (malformed Host ...): a plain-text 400 is acceptable. */
  protocolReject?: boolean;
  /** A subresource that reaches a backend upstream (proxy, exec, ...): 503 is an acceptable answer. */
  connect?: boolean;
}

export interface SentinelNames {
  namespaces: string[];
  clusterRole: string;
  /** Object names inside each sentinel namespace, by resource. */
  names: { configmaps: string; secrets: string; deployments: string };
}

export interface Target {
  kind: FuzzKind;
  name: string;
  /** The object as created (for patch generators). */
  object: Record<string, any>;
}

export interface GenContext {
  fuzzNs: string;
  sentinels: SentinelNames;
  targets: Target[];
  protobuf?: KubeProtobuf;
}

export type Generator = (rng: Rng, ctx: GenContext, index: number) => Omit<FuzzCase, 'index'>;

export const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

export function utf8(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'utf8'));
}

/** The label every request that may delete a collection carries, so that it can only reach the harness's own objects. */
export const SAFE_SELECTOR = 'labelSelector=fuzz-owned%3Dyes';

/** Joins a path and query parts (empty parts dropped). */
export function withQuery(path: string, ...parts: string[]): string {
  const q = parts.filter(Boolean).join('&');
  return q ? `${path}${path.includes('?') ? '&' : '?'}${q}` : path;
}
