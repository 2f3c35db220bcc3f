// Generators of create and update requests with fuzzed bodies: structural
// mutations of valid objects (JSON, YAML, protobuf), textual mutations of
// their JSON, YAML attacks and protobuf garbage. Objects are named fz-<case>
// in the run's namespace, so a body the server accepts only creates or
// updates the harness's own objects.

import { stringify } from 'yaml';
import { type GenContext, type Generator, utf8, withQuery } from './case.ts';
import { collectionPath, type FuzzKind, objectPath, servedKinds } from './kinds.ts';
import { emit, hasSpecial, mutateText, mutateValue } from './mutate.ts';
import { validObject } from './objects.ts';
import { queryString, WRITE_PARAMS } from './params.ts';
import { protobufBody } from './protobuf-cases.ts';
import type { Rng } from './rng.ts';
import { yamlBody } from './yaml-cases.ts';

const writableKinds = servedKinds.filter((k) => k.def.verbs.includes('create'));

/** Where a create or update of `obj` goes, and with which method. */
function target(rng: Rng, ctx: GenContext, k: FuzzKind, name: string): { method: string; path: string } {
  const update = k.def.verbs.includes('update') && rng.chance(0.35);
  if (update) return { method: 'PUT', path: objectPath(k, ctx.fuzzNs, name) };
  return { method: 'POST', path: collectionPath(k, ctx.fuzzNs) };
}

function writeQuery(rng: Rng, bodySize: number): string {
  const parts: string[] = [];
  // big bodies mostly as dry runs: they exercise the same decoding without filling the store
  if (bodySize > 512 * 1024 ? rng.chance(0.7) : rng.chance(0.25)) parts.push('dryRun=All');
  if (rng.chance(0.3)) parts.push(queryString(rng, rng.int(1, 3), WRITE_PARAMS));
  // eslint-disable-next-line no-dupe-else-if -- each rng.chance() call is a new draw
  else if (rng.chance(0.3)) parts.push(`fieldValidation=${rng.pick(['Strict', 'Warn', 'Ignore'])}`);
  return parts.join('&');
}

function mutationCount(rng: Rng): number {
  return rng.weighted([
    [6, 1],
    [3, 2],
    [1, 3],
  ]);
}

export const objectMutation: Generator = (rng, ctx, index) => {
  const k = rng.pick(writableKinds);
  const name = `fz-${index}`;
  const obj = validObject(k, name, ctx.fuzzNs);
  const notes: string[] = [];
  for (let i = mutationCount(rng); i > 0; i--) notes.push(mutateValue(rng, obj, { sentinelNamespace: rng.pick(ctx.sentinels.namespaces) }));
  const { method, path } = target(rng, ctx, k, name);
  const encoding = rng.weighted([
    [7, 'json'],
    [2, 'yaml'],
    [2, 'protobuf'],
  ] as const);
  let body: Uint8Array | undefined;
  let contentType = 'application/json';
  if (encoding === 'protobuf' && ctx.protobuf?.supports(k.apiVersion, k.def.kind) && !hasSpecial(obj)) {
    try {
      body = ctx.protobuf.encode(obj);
      contentType = 'application/vnd.kubernetes.protobuf';
    } catch {
      body = undefined; // the codec refuses values of the wrong type: send JSON instead
    }
  }
  if (!body && encoding === 'yaml') {
    contentType = 'application/yaml';
    // YAML is a superset of JSON: flow-style JSON text carries duplicate keys and odd numbers
    body = utf8(hasSpecial(obj) || rng.chance(0.3) ? emit(obj) : safeYaml(obj));
  }
  body ??= utf8(emit(obj));
  return {
    generator: `object/${notes[0]?.split(' ')[0].split('.')[0] ?? 'none'}`,
    note: `${k.apiVersion} ${k.def.kind} as ${contentType}: ${notes.join('; ')}`,
    method,
    path: withQuery(path, writeQuery(rng, body.length)),
    headers: { 'content-type': contentType, accept: rng.pick(['application/json', '*/*', 'application/yaml', 'application/vnd.kubernetes.protobuf, application/json']) },
    body,
  };
};

/** YAML of a value, or its JSON when the YAML writer cannot take it (very deep values). */
function safeYaml(v: unknown): string {
  try {
    return stringify(v);
  } catch {
    return emit(v);
  }
}

export const jsonText: Generator = (rng, ctx, index) => {
  const k = rng.pick(writableKinds);
  const name = `fz-${index}`;
  const obj = validObject(k, name, ctx.fuzzNs);
  const notes: string[] = [];
  if (rng.chance(0.3)) notes.push(mutateValue(rng, obj, { sentinelNamespace: ctx.sentinels.namespaces[0] }));
  let bytes = utf8(emit(obj));
  let variant = '';
  for (let i = rng.int(1, 2); i > 0; i--) {
    const m = mutateText(rng, bytes);
    bytes = m.bytes;
    notes.push(m.note);
    variant = m.variant;
  }
  const { method, path } = target(rng, ctx, k, name);
  const contentType = rng.weighted([
    [8, 'application/json'],
    [2, 'application/yaml'],
    [1, ''],
  ]);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (contentType) headers['content-type'] = contentType;
  return {
    generator: `json-text/${variant}`,
    note: `${k.apiVersion} ${k.def.kind} (${contentType || 'no content type'}): ${notes.join('; ')}`,
    method,
    path: withQuery(path, writeQuery(rng, bytes.length)),
    headers,
    body: bytes,
  };
};

export const yamlAttack: Generator = (rng, ctx, index) => {
  const k = rng.pick(writableKinds);
  const name = `fz-${index}`;
  const { text, note, variant } = yamlBody(rng, validObject(k, name, ctx.fuzzNs));
  const { method, path } = target(rng, ctx, k, name);
  const contentType = rng.weighted([
    [8, 'application/yaml'],
    [1, 'application/yaml; charset=utf-8'],
    [1, 'application/x-yaml'],
    [1, 'text/yaml'],
  ]);
  return {
    generator: `yaml/${variant}`,
    note: `${k.apiVersion} ${k.def.kind}: ${note}`,
    method,
    path: withQuery(path, rng.chance(0.3) ? 'dryRun=All' : ''),
    headers: { 'content-type': contentType, accept: rng.pick(['application/json', 'application/yaml']) },
    body: utf8(text),
  };
};

const crd = servedKinds.find((k) => k.def.kind === 'CustomResourceDefinition');

export const protobufGarbage: Generator = (rng, ctx, index) => {
  const candidates = writableKinds.filter((k) => ctx.protobuf?.supports(k.apiVersion, k.def.kind) ?? true);
  const k = crd && rng.chance(0.15) ? crd : rng.pick(candidates);
  const name = `fz-${index}`;
  const obj = validObject(k, name, ctx.fuzzNs);
  let valid: Uint8Array | undefined;
  try {
    valid = ctx.protobuf?.encode(obj);
  } catch {
    valid = undefined;
  }
  const { bytes, note, variant } = protobufBody(rng, { apiVersion: k.apiVersion, kind: k.def.kind, valid });
  const { method, path } = target(rng, ctx, k, name);
  return {
    generator: `protobuf/${variant}`,
    note: `${k.apiVersion} ${k.def.kind}: ${note}`,
    method,
    path: withQuery(path, rng.chance(0.3) ? 'dryRun=All' : ''),
    headers: {
      'content-type': rng.weighted([
        [9, 'application/vnd.kubernetes.protobuf'],
        [1, 'application/vnd.kubernetes.protobuf;stream=watch'],
      ]),
      accept: rng.pick(['application/vnd.kubernetes.protobuf', 'application/vnd.kubernetes.protobuf, application/json', 'application/json']),
    },
    body: bytes,
  };
};
