// The query options of every verb as kube-apiserver 1.31 reads them: the
// 422s on ListOptions, CreateOptions, UpdateOptions, PatchOptions and
// DeleteOptions (one error per cause, each cause's message without its
// field), and every boolean parameter in each of its upstream spellings
// (false only for 0 and false in any case; pretty with Go's ParseBool).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let s: RunningServer;
const NS = 'qo';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const D = `/apis/apps/v1/namespaces/${NS}/deployments`;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  await call('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  await call('POST', CM, { metadata: { name: 'existing' }, data: { a: '1' } });
  await call('POST', D, {
    metadata: { name: 'scaled' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
  });
});
afterAll(async () => {
  await s?.stop();
});

type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string; json: Json | undefined }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await s.app.request(path, init);
  const text = await res.text();
  let json: Json | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
const MERGE = { 'content-type': 'application/merge-patch+json' };
const APPLY = { 'content-type': 'application/apply-patch+yaml' };

type Row = [label: string, method: string, path: string, body: unknown, headers: Record<string, string>, kind: string, causes: [field: string, reason: string, message: string][]];

const ROWS: Row[] = [
  [
    'list: resourceVersionMatch without resourceVersion',
    'GET',
    `${CM}?resourceVersionMatch=NotOlderThan`,
    undefined,
    {},
    'ListOptions',
    [['resourceVersionMatch', 'FieldValueForbidden', 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']],
  ],
  [
    'list: sendInitialEvents',
    'GET',
    `${CM}?sendInitialEvents=false`,
    undefined,
    {},
    'ListOptions',
    [['sendInitialEvents', 'FieldValueForbidden', 'Forbidden: sendInitialEvents is forbidden for list']],
  ],
  [
    'watch: resourceVersionMatch without sendInitialEvents, and an unsupported one',
    'GET',
    `${CM}?watch=1&resourceVersionMatch=Exact`,
    undefined,
    {},
    'ListOptions',
    [
      ['resourceVersionMatch', 'FieldValueForbidden', 'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
      ['resourceVersionMatch', 'FieldValueNotSupported', 'Unsupported value: "Exact": supported values: "NotOlderThan"'],
    ],
  ],
  ['create: dryRun', 'POST', `${CM}?dryRun=Some`, cm('a'), {}, 'CreateOptions', [['dryRun', 'FieldValueNotSupported', 'Unsupported value: []string{"Some"}: supported values: "All"']]],
  ['create: fieldManager too long', 'POST', `${CM}?fieldManager=${'m'.repeat(129)}`, cm('a'), {}, 'CreateOptions', [['fieldManager', 'FieldValueTooLong', 'Too long: may not be more than 128 bytes']]],
  [
    'create: fieldManager not printable',
    'POST',
    `${CM}?fieldManager=a%07b`,
    cm('a'),
    {},
    'CreateOptions',
    [['fieldManager', 'FieldValueInvalid', 'Invalid value: "a\\ab": invalid character U+0007 (at position 1)']],
  ],
  [
    'create: fieldValidation and dryRun, both at once',
    'POST',
    `${CM}?fieldValidation=Loose&dryRun=x`,
    cm('a'),
    {},
    'CreateOptions',
    [
      ['dryRun', 'FieldValueNotSupported', 'Unsupported value: []string{"x"}: supported values: "All"'],
      ['fieldValidation', 'FieldValueNotSupported', 'Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"'],
    ],
  ],
  [
    'update: dryRun',
    'PUT',
    `${CM}/existing?dryRun=x`,
    { ...cm('existing'), data: { a: '2' } },
    {},
    'UpdateOptions',
    [['dryRun', 'FieldValueNotSupported', 'Unsupported value: []string{"x"}: supported values: "All"']],
  ],
  [
    'patch: force on a merge patch, whatever its value',
    'PATCH',
    `${CM}/existing?force=false`,
    { data: { a: '3' } },
    MERGE,
    'PatchOptions',
    [['force', 'FieldValueForbidden', 'Forbidden: may not be specified for non-apply patch']],
  ],
  [
    'apply: no fieldManager',
    'PATCH',
    `${CM}/existing`,
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: existing\n',
    APPLY,
    'PatchOptions',
    [['fieldManager', 'FieldValueRequired', 'Required value: is required for apply patch']],
  ],
  [
    'scale update: dryRun',
    'PUT',
    `${D}/scaled/scale?dryRun=x`,
    { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'scaled', namespace: NS }, spec: { replicas: 2 } },
    {},
    'UpdateOptions',
    [['dryRun', 'FieldValueNotSupported', 'Unsupported value: []string{"x"}: supported values: "All"']],
  ],
  [
    'delete: propagationPolicy',
    'DELETE',
    `${CM}/existing?propagationPolicy=Later`,
    undefined,
    {},
    'DeleteOptions',
    [['propagationPolicy', 'FieldValueNotSupported', 'Unsupported value: "Later": supported values: "Foreground", "Background", "Orphan", "nil"']],
  ],
  [
    'delete: orphanDependents with propagationPolicy, and dryRun',
    'DELETE',
    `${CM}/existing?orphanDependents=false&propagationPolicy=Orphan&dryRun=x`,
    undefined,
    {},
    'DeleteOptions',
    [
      ['propagationPolicy', 'FieldValueInvalid', 'Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set'],
      ['dryRun', 'FieldValueNotSupported', 'Unsupported value: []string{"x"}: supported values: "All"'],
    ],
  ],
];

describe('options errors: 422 on <Verb>Options, causes that do not repeat their field', () => {
  it.each(ROWS)('%s', async (_label, method, path, body, headers, kind, causes) => {
    const r = await call(method, path, body, headers);
    expect(r.status, r.text).toBe(422);
    const parts = causes.map(([field, , message]) => `${field}: ${message}`);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `${kind}.meta.k8s.io "" is invalid: ${parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`}`,
      reason: 'Invalid',
      // no name: Go leaves the empty one out
      details: { group: 'meta.k8s.io', kind, causes: causes.map(([field, reason, message]) => ({ reason, message, field })) },
      code: 422,
    });
    for (const c of r.json!.details.causes) expect(c.message.startsWith(`${c.field}:`)).toBe(false);
  });

  it('nothing was written by any of them', async () => {
    const r = await call('GET', `${CM}/existing`);
    expect(r.json!.data).toEqual({ a: '1' });
  });
});

const FALSE = ['false', 'False', 'FALSE', 'fAlSe', '0'];
const TRUE = ['true', 'True', 'TRUE', '1', 'yes', 'on', 'x', ''];

describe('boolean query parameters in each spelling', () => {
  it.each([...TRUE.map((v) => [v, true] as const), ...FALSE.map((v) => [v, false] as const)])('watch=%j: a watch is %s', async (v, watch) => {
    const r = await call('GET', `${CM}?watch=${encodeURIComponent(v)}&timeoutSeconds=-1`);
    expect(r.status).toBe(200);
    // a watch streams events (the existing objects first), a list is one object
    if (watch) expect(r.text.startsWith('{"type":"ADDED"')).toBe(true);
    else expect(r.json!.kind).toBe('ConfigMapList');
  });

  it.each([...TRUE.map((v) => [v, true] as const), ...FALSE.map((v) => [v, false] as const)])('orphanDependents=%j: orphans is %s', async (v, orphan) => {
    const name = `orphan-${Math.random().toString(36).slice(2, 8)}`;
    await call('POST', CM, cm(name));
    const r = await call('DELETE', `${CM}/${name}?orphanDependents=${encodeURIComponent(v)}`);
    expect(r.status, r.text).toBe(200);
    // orphaning holds the object on the orphan finalizer (answered as the object); otherwise it is gone (a Status)
    if (orphan) expect(r.json).toMatchObject({ kind: 'ConfigMap', metadata: { finalizers: ['orphan'] } });
    else expect(r.json!.kind).toBe('Status');
  });

  it.each([...TRUE.map((v) => [v, true] as const), ...FALSE.map((v) => [v, false] as const)])('allowWatchBookmarks=%j is read as %s (never refused)', async (v) => {
    const r = await call('GET', `${CM}?watch=1&timeoutSeconds=-1&allowWatchBookmarks=${encodeURIComponent(v)}`);
    expect(r.status).toBe(200);
  });

  it.each([...TRUE, ...FALSE])('force=%j on a merge patch is forbidden (set whatever its value)', async (v) => {
    const r = await call('PATCH', `${CM}/existing?force=${encodeURIComponent(v)}`, { data: { a: '1' } }, MERGE);
    expect(r.status).toBe(422);
  });

  it.each(['true', '1', 'yes', ''])('force=%j on an apply takes over a conflicting field', async (v) => {
    const name = `force-${Math.random().toString(36).slice(2, 8)}`;
    await call('PATCH', `${CM}/${name}?fieldManager=one`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n`, APPLY);
    const conflict = await call('PATCH', `${CM}/${name}?fieldManager=two&force=false`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "2"\n`, APPLY);
    expect(conflict.status).toBe(409);
    const forced = await call('PATCH', `${CM}/${name}?fieldManager=two&force=${encodeURIComponent(v)}`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "2"\n`, APPLY);
    expect(forced.status).toBe(200);
    expect(forced.json!.data).toEqual({ a: '2' });
  });

  // Go's strconv.ParseBool; a value it cannot read is not pretty
  it.each([
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['t', true],
    ['T', true],
    ['1', true],
    ['false', false],
    ['0', false],
    ['f', false],
    ['yes', false],
    ['tRuE', false],
  ] as const)('pretty=%j: indented is %s', async (v, indented) => {
    const r = await call('GET', `${CM}/existing?pretty=${v}`);
    expect(r.status).toBe(200);
    expect(r.text.includes('\n  ')).toBe(indented);
  });

  it.each([
    ['curl/8.5.0', '', true],
    ['Wget/1.21', '', true],
    ['Mozilla/5.0 (X11)', '', true],
    ['kubectl/v1.31.0', '', false],
    ['my-curl/1.0', '', false],
    ['curl/8.5.0', 'pretty=false', false],
    ['curl/8.5.0', 'pretty=nope', false],
  ] as const)('User-Agent %j with %j: indented is %s', async (ua, q, indented) => {
    const r = await call('GET', `${CM}/existing?${q}`, undefined, { 'user-agent': ua });
    expect(r.text.includes('\n  ')).toBe(indented);
    // errors follow the same rule
    const e = await call('GET', `${CM}/missing?${q}`, undefined, { 'user-agent': ua });
    expect(e.status).toBe(404);
    expect(e.text.includes('\n  ')).toBe(indented);
  });
});

describe('integer query parameters of a list', () => {
  it.each(['x', '1.5', ''])("timeoutSeconds=%j is 400 with Go's strconv text", async (v) => {
    const r = await call('GET', `${CM}?timeoutSeconds=${encodeURIComponent(v)}`);
    expect(r.status).toBe(400);
    expect(r.json!.message).toBe(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  });

  it('timeoutSeconds=30 lists', async () => {
    const r = await call('GET', `${CM}?timeoutSeconds=30`);
    expect(r.json!.kind).toBe('ConfigMapList');
  });
});

describe('includeObject (TableOptions, read only for a Table)', () => {
  const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

  it.each(['Object', 'None', 'Metadata', ''])('includeObject=%j is accepted for a Table', async (v) => {
    const r = await call('GET', `${CM}/existing?includeObject=${v}`, undefined, TABLE);
    expect(r.status).toBe(200);
    expect(r.json!.kind).toBe('Table');
  });

  it.each([
    ['GET', `${CM}/existing`],
    ['GET', CM],
  ])('an unknown includeObject on %s %s is 400 for a Table', async (method, path) => {
    const r = await call(method, `${path}?includeObject=All`, undefined, TABLE);
    expect(r.status).toBe(400);
    expect(r.json!.message).toBe(`Unable to convert to Table as requested: includeObject: Invalid value: "All": must be 'Metadata', 'Object', 'None', or empty`);
  });

  it('and ignored for any other answer', async () => {
    const r = await call('GET', `${CM}/existing?includeObject=All`);
    expect(r.status).toBe(200);
    expect(r.json!.kind).toBe('ConfigMap');
  });
});
