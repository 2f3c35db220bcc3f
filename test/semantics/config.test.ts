// ConfigMap and Secret rules, and the metadata rules common to every kind,
// one row per rule: status code, reason and field path (and text where it
// is upstream's).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeFields, causeMessages, server } from './helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

const b64 = (t: string) => Buffer.from(t).toString('base64');
const CM = '/api/v1/namespaces/default/configmaps';
const SEC = '/api/v1/namespaces/default/secrets';
let n = 0;
const uniq = (p: string) => `${p}-${++n}`;

type Row = [string, Record<string, unknown>, number, string?, string?];

describe('ConfigMap create', () => {
  const rows: Row[] = [
    ['valid data and binaryData', { data: { 'a.b_C-1': 'x' }, binaryData: { bin: b64('y') } }, 201],
    ['bad key', { data: { 'a b': 'x' } }, 422, 'data[a b]', "Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.'"],
    ['key ..', { data: { '..': 'x' } }, 422, 'data[..]', 'Invalid value: "..": must not be \'..\''],
    ['key starting ..', { data: { '..a': 'x' } }, 422, 'data[..a]', 'Invalid value: "..a": must not start with \'..\''],
    ['key too long', { data: { ['k'.repeat(254)]: 'x' } }, 422, `data[${'k'.repeat(254)}]`, `Invalid value: "${'k'.repeat(254)}": must be no more than 253 characters`],
    ['key in data and binaryData', { data: { k: 'x' }, binaryData: { k: b64('x') } }, 422, 'binaryData[k]', 'Invalid value: "k": duplicate of key present in data'],
    ['over 1 MiB', { data: { a: 'x'.repeat(600 * 1024), b: 'y'.repeat(500 * 1024) } }, 422, '', 'Too long: may not be more than 1048576 bytes'],
  ];
  it.each(rows)('%s', async (_name, body, code, field, msg) => {
    const r = await call(s, 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: uniq('cm') }, ...body });
    expect(r.code).toBe(code);
    if (code === 422) {
      expect(r.body.reason).toBe('Invalid');
      expect(causeFields(r)).toContain(field);
      expect(causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`))).toBe(true);
    }
  });
});

describe('ConfigMap immutable', () => {
  it('freezes data and binaryData, cannot be unset, metadata may change', async () => {
    const name = uniq('frozen');
    expect((await call(s, 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' }, immutable: true })).code).toBe(201);
    const live = (await call(s, 'GET', `${CM}/${name}`)).body;
    const dataChange = await call(s, 'PUT', `${CM}/${name}`, { ...live, data: { a: '2' } });
    expect(dataChange.code).toBe(422);
    expect(causeMessages(dataChange)).toContain('data: Forbidden: field is immutable when `immutable` is set');
    const binChange = await call(s, 'PUT', `${CM}/${name}`, { ...live, binaryData: { b: b64('x') } });
    expect(causeFields(binChange)).toContain('binaryData');
    const unset = await call(s, 'PUT', `${CM}/${name}`, { ...live, immutable: false });
    expect(unset.code).toBe(422);
    expect(causeMessages(unset)).toContain('immutable: Forbidden: field is immutable when `immutable` is set');
    const label = await call(s, 'PUT', `${CM}/${name}`, { ...live, metadata: { ...live.metadata, labels: { ok: 'yes' } } });
    expect(label.code).toBe(200);
  });

  it('a mutable ConfigMap may become immutable', async () => {
    const name = uniq('later');
    await call(s, 'POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
    const live = (await call(s, 'GET', `${CM}/${name}`)).body;
    expect((await call(s, 'PUT', `${CM}/${name}`, { ...live, data: { a: '2' }, immutable: true })).code).toBe(200);
  });
});

describe('Secret', () => {
  const secret = (body: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: uniq('sec') }, ...body });

  it('stringData is merged into data and never returned; type defaults to Opaque', async () => {
    const r = await call(s, 'POST', SEC, secret({ data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new' } }));
    expect(r.code).toBe(201);
    expect(r.body.type).toBe('Opaque');
    expect(r.body.stringData).toBeUndefined();
    expect(r.body.data).toEqual({ a: b64('new'), b: b64('keep') });
    const got = (await call(s, 'GET', `${SEC}/${r.body.metadata.name}`)).body;
    expect(got.stringData).toBeUndefined();
    const upd = await call(s, 'PUT', `${SEC}/${got.metadata.name}`, { ...got, stringData: { c: 'see' } });
    expect(upd.code).toBe(200);
    expect(upd.body.data.c).toBe(b64('see'));
    expect(upd.body.stringData).toBeUndefined();
  });

  const rows: Row[] = [
    ['bad key', { data: { 'a/b': b64('x') } }, 422, 'data[a/b]', 'Invalid value: "a/b": a valid config key'],
    ['bad stringData key', { stringData: { 'a b': 'x' } }, 422, 'data[a b]', 'Invalid value: "a b"'],
    ['over 1 MiB', { data: { a: b64('x'.repeat(1024 * 1024 + 1)) } }, 422, 'data', 'Too long: may not be more than 1048576 bytes'],
    ['service-account-token without annotation', { type: 'kubernetes.io/service-account-token' }, 422, 'metadata.annotations[kubernetes.io/service-account.name]', 'Required value'],
    ['service-account-token with annotation', { type: 'kubernetes.io/service-account-token', metadata: { name: uniq('sat'), annotations: { 'kubernetes.io/service-account.name': 'default' } } }, 201],
    ['dockerconfigjson missing', { type: 'kubernetes.io/dockerconfigjson' }, 422, 'data[.dockerconfigjson]', 'Required value'],
    [
      'dockerconfigjson not JSON',
      { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{nope') } },
      422,
      'data[.dockerconfigjson]',
      'Invalid value: "<secret contents redacted>"',
    ],
    ['dockerconfigjson valid', { type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': b64('{"auths":{}}') } }, 201],
    ['dockercfg missing', { type: 'kubernetes.io/dockercfg' }, 422, 'data[.dockercfg]', 'Required value'],
    ['basic-auth empty', { type: 'kubernetes.io/basic-auth' }, 422, 'data[username]', 'Required value'],
    ['basic-auth password only', { type: 'kubernetes.io/basic-auth', stringData: { password: 'p' } }, 201],
    ['ssh-auth missing key', { type: 'kubernetes.io/ssh-auth' }, 422, 'data[ssh-privatekey]', 'Required value'],
    ['tls missing crt', { type: 'kubernetes.io/tls', stringData: { 'tls.key': 'k' } }, 422, 'data[tls.crt]', 'Required value'],
    ['tls complete', { type: 'kubernetes.io/tls', stringData: { 'tls.key': 'k', 'tls.crt': 'c' } }, 201],
    [
      'bootstrap token bad id',
      { type: 'bootstrap.kubernetes.io/token', metadata: { name: 'bootstrap-token-ABC' }, stringData: { 'token-id': 'ABC', 'token-secret': '0123456789abcdef' } },
      422,
      'data[token-id]',
      'Invalid value',
    ],
    ['bootstrap token valid', { type: 'bootstrap.kubernetes.io/token', metadata: { name: 'bootstrap-token-abc123' }, stringData: { 'token-id': 'abc123', 'token-secret': '0123456789abcdef' } }, 201],
  ];
  it.each(rows)('%s', async (_name, body, code, field, msg) => {
    const r = await call(s, 'POST', SEC, secret(body));
    expect(r.code, JSON.stringify(r.body)).toBe(code);
    if (code === 422) {
      expect(r.body.reason).toBe('Invalid');
      expect(causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`))).toBe(true);
    }
  });

  it('type is immutable; immutable freezes data', async () => {
    const c = await call(s, 'POST', SEC, secret({ stringData: { a: '1' }, immutable: true }));
    const live = c.body;
    const t = await call(s, 'PUT', `${SEC}/${live.metadata.name}`, { ...live, type: 'kubernetes.io/basic-auth' });
    expect(t.code).toBe(422);
    expect(causeMessages(t)).toContain('type: Invalid value: "kubernetes.io/basic-auth": field is immutable');
    const d = await call(s, 'PUT', `${SEC}/${live.metadata.name}`, { ...live, stringData: { a: '2' } });
    expect(causeMessages(d)).toContain('data: Forbidden: field is immutable when `immutable` is set');
  });
});

describe('common metadata rules', () => {
  const cm = (md: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: uniq('meta'), ...md } });
  const rows: Row[] = [
    ['label key syntax', { labels: { 'bad key!': 'v' } }, 422, 'metadata.labels', 'Invalid value: "bad key!"'],
    ['label value syntax', { labels: { k: '-bad' } }, 422, 'metadata.labels', 'Invalid value: "-bad"'],
    ['label value too long', { labels: { k: 'v'.repeat(64) } }, 422, 'metadata.labels', 'Invalid value'],
    ['annotation key syntax', { annotations: { 'a/b/c': 'v' } }, 422, 'metadata.annotations', 'Invalid value: "a/b/c"'],
    ['annotations over 256 KiB', { annotations: { big: 'x'.repeat(256 * 1024) } }, 422, 'metadata.annotations', 'Too long'],
    ['finalizer syntax', { finalizers: ['bad finalizer'] }, 422, 'metadata.finalizers[0]', 'Invalid value: "bad finalizer"'],
    ['ownerReference without uid', { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: '' }] }, 422, 'metadata.ownerReferences.uid', 'Invalid value: "": uid must not be empty'],
    [
      'two controllers',
      {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: '1', controller: true },
          { apiVersion: 'v1', kind: 'Pod', name: 'q', uid: '2', controller: true },
        ],
      },
      422,
      'metadata.ownerReferences',
      'Invalid value',
    ],
    ['name not a subdomain', { name: 'Upper' }, 422, 'metadata.name', 'Invalid value: "Upper"'],
    ['valid metadata', { labels: { 'example.com/k': 'v' }, annotations: { 'example.com/a': 'any text' }, finalizers: ['example.com/f'] }, 201],
  ];
  it.each(rows)('%s', async (_name, md, code, field, msg) => {
    const r = await call(s, 'POST', CM, cm(md));
    expect(r.code).toBe(code);
    if (code === 422)
      expect(
        causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`)),
        causeMessages(r).join('\n'),
      ).toBe(true);
  });

  it.each([
    ['uid', { uid: 'other' }],
    ['creationTimestamp', { creationTimestamp: '2000-01-01T00:00:00Z' }],
  ])('%s is immutable', async (field, change) => {
    const c = await call(s, 'POST', CM, cm({}));
    const r = await call(s, 'PUT', `${CM}/${c.body.metadata.name}`, { ...c.body, metadata: { ...c.body.metadata, ...change } });
    expect(r.code).toBe(422);
    expect(causeFields(r)).toContain(`metadata.${field}`);
  });

  it('generation moves on spec change only; status writes ignore spec', async () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'gen' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    };
    const path = '/apis/apps/v1/namespaces/default/deployments';
    const c = await call(s, 'POST', path, dep);
    expect(c.body.metadata.generation).toBe(1);
    const l = await call(s, 'PUT', `${path}/gen`, { ...c.body, metadata: { ...c.body.metadata, labels: { x: 'y' } } });
    expect(l.body.metadata.generation).toBe(1);
    const st = await call(s, 'PUT', `${path}/gen/status`, { ...l.body, spec: { ...l.body.spec, replicas: 7 }, status: { replicas: 3 } });
    expect(st.code).toBe(200);
    expect(st.body.status.replicas).toBe(3);
    expect(st.body.spec.replicas).not.toBe(7);
    const sp = await call(s, 'PUT', `${path}/gen`, { ...st.body, spec: { ...st.body.spec, replicas: 5 }, status: { replicas: 99 } });
    expect(sp.body.metadata.generation).toBe(2);
    expect(sp.body.status.replicas).toBe(3);
  });
});

describe('status writes and metadata', () => {
  it('a status write keeps spec but takes labels and annotations; identity stays', async () => {
    const path = '/apis/apps/v1/namespaces/default/replicasets';
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'st-meta' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    };
    const c = (await call(s, 'POST', path, rs)).body;
    const r = await call(s, 'PUT', `${path}/st-meta/status`, {
      ...c,
      metadata: { ...c.metadata, labels: { seen: 'yes' }, annotations: { note: 'x' } },
      spec: { ...c.spec, replicas: 9 },
      status: { replicas: 2 },
    });
    expect(r.code, JSON.stringify(r.body)).toBe(200);
    expect(r.body.metadata.labels).toEqual({ seen: 'yes' });
    expect(r.body.metadata.annotations).toEqual({ note: 'x' });
    expect(r.body.spec.replicas).toBe(c.spec.replicas);
    expect(r.body.status.replicas).toBe(2);
    expect(r.body.metadata.generation).toBe(c.metadata.generation);
    const bad = await call(s, 'PUT', `${path}/st-meta/status`, { ...r.body, metadata: { ...r.body.metadata, labels: { 'bad key': 'v' } } });
    expect(bad.code).toBe(422);
    expect(causeFields(bad)).toContain('metadata.labels');
  });
});
