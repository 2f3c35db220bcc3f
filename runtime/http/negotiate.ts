// Content negotiation: parses Accept into media types with parameters and
// picks the response form (plain JSON or YAML, Table, PartialObjectMetadata,
// aggregated discovery, protobuf) the way kube-apiserver does: the first
// acceptable entry in the client's order of preference wins; nothing
// acceptable is 406.

import { DISCOVERY_GROUP, MEDIA_JSON, MEDIA_PROTOBUF, MEDIA_YAML, META_GROUP } from '../api/k8s-names.ts';
import { errors } from '../api/errors.ts';

export interface MediaRange {
  type: string; // e.g. application/json, */*
  params: Record<string, string>;
  q: number;
}

const ANY: readonly MediaRange[] = Object.freeze([Object.freeze({ type: '*/*', params: Object.freeze({}), q: 1 })]);

/** Accept headers already parsed (clients send the same few): the ranges without parsing again. */
const parsed = new Map<string, readonly MediaRange[]>();
const PARSED_MAX = 256;

/** The media ranges of an Accept header, most preferred first (shared and frozen: never modify them). */
export function parseAccept(header: string | undefined | null): readonly MediaRange[] {
  if (!header) return ANY;
  let ranges = parsed.get(header);
  if (!ranges) {
    ranges = Object.freeze(parseAcceptOnce(header).map((m) => Object.freeze({ ...m, params: Object.freeze(m.params) })));
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(header, ranges);
  }
  return ranges;
}

function parseAcceptOnce(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [rawType, ...rawParams] = part.split(';');
    const type = rawType.trim().toLowerCase();
    if (!type) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    out.push({ type, params, q: Number.isFinite(q) ? q : 0 });
  }
  // stable sort by q, keeping the client's order among equals
  return out
    .map((m, i) => ({ m, i }))
    .sort((a, b) => b.m.q - a.m.q || a.i - b.i)
    .map((x) => x.m)
    .filter((m) => m.q > 0);
}

export type Encoding = 'json' | 'yaml' | 'protobuf';

/** What an object or list response is transformed into before encoding. */
export type Target = { as: 'object' } | { as: 'Table'; version: string } | { as: 'PartialObjectMetadata'; version: string } | { as: 'PartialObjectMetadataList'; version: string };

export interface Negotiated {
  encoding: Encoding;
  target: Target;
  /** Content-Type of the response. */
  contentType: string;
}

const ACCEPTED = [MEDIA_JSON, MEDIA_YAML, MEDIA_PROTOBUF];

function encodingOf(type: string, allowProtobuf: boolean): Encoding | undefined {
  switch (type) {
    case '*/*':
    case 'application/*':
    case MEDIA_JSON:
      return 'json';
    case MEDIA_YAML:
      return 'yaml';
    case MEDIA_PROTOBUF:
      return allowProtobuf ? 'protobuf' : undefined;
    default:
      return undefined;
  }
}

export interface NegotiateOptions {
  /** The resource has a protobuf codec. */
  protobuf: boolean;
  /** Transformations (as=Table ...) allowed here: object and list reads. */
  allowTransforms: boolean;
  /** List or object endpoint (PartialObjectMetadataList only fits lists). */
  list: boolean;
}

/** Forms already picked, per Accept header, per combination of options (clients send the same few headers). */
const picked = new Map<string, (Readonly<Negotiated> | undefined)[]>();
const PICKED_MAX = 256;

/** Picks the response form for an API object or list; throws 406. The answer is shared and frozen: never modify it. */
export function negotiateObject(accept: string | undefined | null, opts: NegotiateOptions): Negotiated {
  const header = accept ?? '';
  const slot = (opts.protobuf ? 4 : 0) | (opts.allowTransforms ? 2 : 0) | (opts.list ? 1 : 0);
  let forms = picked.get(header);
  let form = forms?.[slot];
  if (form) return form;
  const fresh = pickForm(accept, opts);
  form = Object.freeze({ ...fresh, target: Object.freeze(fresh.target) });
  if (!forms) {
    if (picked.size >= PICKED_MAX) picked.clear();
    picked.set(header, (forms = []));
  }
  forms[slot] = form;
  return form;
}

function pickForm(accept: string | undefined | null, opts: NegotiateOptions): Negotiated {
  for (const m of parseAccept(accept)) {
    const as = m.params['as'];
    if (as) {
      if (!opts.allowTransforms) continue;
      if (m.params['g'] !== META_GROUP) continue;
      const v = m.params['v'];
      if (v !== 'v1' && v !== 'v1beta1') continue;
      const enc = encodingOf(m.type, false);
      if (enc !== 'json' && enc !== 'yaml') continue;
      const ct = enc === 'yaml' ? MEDIA_YAML : MEDIA_JSON;
      if (as === 'Table') return { encoding: enc, target: { as: 'Table', version: v }, contentType: `${ct};as=Table;v=${v};g=${META_GROUP}` };
      if (as === 'PartialObjectMetadata' && !opts.list) {
        return { encoding: enc, target: { as: 'PartialObjectMetadata', version: v }, contentType: `${ct};as=PartialObjectMetadata;v=${v};g=${META_GROUP}` };
      }
      if (as === 'PartialObjectMetadataList' && opts.list) {
        return { encoding: enc, target: { as: 'PartialObjectMetadataList', version: v }, contentType: `${ct};as=PartialObjectMetadataList;v=${v};g=${META_GROUP}` };
      }
      continue;
    }
    const enc = encodingOf(m.type, opts.protobuf);
    if (enc) {
      const ct = enc === 'json' ? MEDIA_JSON : enc === 'yaml' ? MEDIA_YAML : MEDIA_PROTOBUF;
      return { encoding: enc, target: { as: 'object' }, contentType: ct };
    }
  }
  throw errors.notAcceptable(opts.protobuf ? ACCEPTED : [MEDIA_JSON, MEDIA_YAML]);
}

/** Aggregated discovery is asked for with as=APIGroupDiscoveryList in apidiscovery.k8s.io v2 (or v2beta1). */
export function wantsAggregatedDiscovery(accept: string | undefined | null): { version: string } | undefined {
  for (const m of parseAccept(accept)) {
    if (m.params['as'] === 'APIGroupDiscoveryList' && m.params['g'] === DISCOVERY_GROUP && (m.params['v'] === 'v2' || m.params['v'] === 'v2beta1')) {
      return { version: m.params['v'] };
    }
    // an earlier plain JSON preference means the legacy form
    if (!m.params['as'] && encodingOf(m.type, false)) return undefined;
  }
  return undefined;
}

/** The client's most preferred encoding it can get from us is protobuf (for Status errors). */
export function prefersProtobuf(accept: string | undefined | null): boolean {
  for (const m of parseAccept(accept)) {
    if (m.params['as']) continue;
    if (m.type === MEDIA_PROTOBUF) return true;
    if (encodingOf(m.type, false)) return false;
  }
  return false;
}
