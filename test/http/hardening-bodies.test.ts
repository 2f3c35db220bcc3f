// Hostile request bodies through app.request(): nesting at and past the depth
// limit in every body kind (JSON, YAML, protobuf, each patch type, apply),
// YAML alias bombs and broken aliases, strategic merge patches that cannot
// apply, garbage bodies for every patch type, and very many labels. Each row
// gets kube-apiserver's status code and reason (never a 5xx), and the server
// still answers /readyz afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { MAX_NESTING_DEPTH as L } from '../../runtime/codec/limits.ts';
import { crdProtobufNot, jsonLists, jsonObjects, manyLabels, revisionJSON, revisionProtobuf, revisionYAML, yamlBlockMaps, yamlLaughs } from '../support/hostile-bodies.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

const CR = '/apis/apps/v1/namespaces/default/controllerrevisions';
const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';
const CRD = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const JSON_CT = 'application/json';
const YAML_CT = 'application/yaml';
const PB = 'application/vnd.kubernetes.protobuf';
const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const JSONP = 'application/json-patch+json';
const APPLY = 'application/apply-patch+yaml';

interface Reply {
  status: number;
  json: any;
  text: string;
}

async function req(method: string, path: string, body?: string | Uint8Array, ct = JSON_CT, accept?: string): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': ct };
  if (accept) headers.accept = accept;
  const res = await s.app.request(path, { method, headers, body: body as BodyInit | undefined });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

async function expectReady(): Promise<void> {
  const r = await req('GET', '/readyz');
  expect(r.status).toBe(200);
}

/** The answer must be a Status with this code and reason whose message contains `message`. */
function expectStatus(r: Reply, code: number, reason: string, message: string): void {
  expect(r.status, r.text.slice(0, 300)).toBe(code);
  expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', code, reason });
  expect(r.json.message).toContain(message);
}

let seq = 0;
const fresh = (prefix: string) => `${prefix}-${seq++}`;

/** Creates an empty ControllerRevision to patch. */
async function revision(): Promise<string> {
  const name = fresh('rev');
  expect((await req('POST', CR, revisionJSON(name, '{}'))).status).toBe(201);
  return name;
}

const RAW_DEPTH = `exceeded max depth`;
const YAML_DEPTH = `error converting YAML to JSON: yaml: exceeded max depth of ${L}`;
const PB_DEPTH = `bytes: exceeded max depth of ${L}`;
const NOT_HANDLED = 'ControllerRevision in version "v1" cannot be handled as a ControllerRevision: ';

// A ControllerRevision is depth 1 and its free-form `data` starts at depth 2:
// data nested L - 1 levels makes an object exactly at the limit.
describe('nesting depth (defects 2 and 7)', () => {
  type Send = () => Promise<Reply>;
  const atLimit: [string, Send, number][] = [
    ['create, JSON lists', () => req('POST', CR, revisionJSON(fresh('j'), `{"l":${jsonLists(L - 2)}}`)), 201],
    ['create, JSON objects', () => req('POST', CR, revisionJSON(fresh('j'), jsonObjects(L - 1))), 201],
    ['create, YAML flow', () => req('POST', CR, revisionYAML(fresh('y'), `{a: ${'['.repeat(L - 2)}${']'.repeat(L - 2)}}`), YAML_CT), 201],
    ['create, YAML block', () => req('POST', CR, revisionYAML(fresh('y'), yamlBlockMaps(L - 1, 2), true), YAML_CT), 201],
    ['create, protobuf RawExtension JSON', () => req('POST', CR, revisionProtobuf(fresh('p'), Buffer.from(jsonObjects(L - 1))), PB), 201],
    ['merge patch', async () => req('PATCH', `${CR}/${await revision()}`, `{"data":${jsonObjects(L - 1)}}`, MERGE), 200],
    ['strategic merge patch', async () => req('PATCH', `${CR}/${await revision()}`, `{"data":${jsonObjects(L - 1)}}`, SMP), 200],
    // the body is a list of operation objects: a value inside nests two levels deeper
    ['JSON patch', async () => req('PATCH', `${CR}/${await revision()}`, `[{"op":"add","path":"/data","value":${jsonObjects(L - 2)}}]`, JSONP), 200],
    [
      'apply, YAML',
      () => {
        const name = fresh('ap');
        return req('PATCH', `${CR}/${name}?fieldManager=t`, revisionYAML(name, yamlBlockMaps(L - 1, 2), true), APPLY);
      },
      201,
    ],
    [
      'apply, JSON',
      () => {
        const name = fresh('ap');
        return req('PATCH', `${CR}/${name}?fieldManager=t`, revisionJSON(name, jsonObjects(L - 1)), APPLY);
      },
      201,
    ],
  ];

  it.each(atLimit)('%s: exactly at the limit is accepted and served in every format', async (_n, send, code) => {
    const r = await send();
    expect(r.status, r.text.slice(0, 300)).toBe(code);
    const path = `${CR}/${r.json.metadata.name}`;
    for (const accept of [JSON_CT, YAML_CT, PB, 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io']) {
      const got = await req('GET', path, undefined, JSON_CT, accept);
      expect(got.status, `${accept}: ${got.text.slice(0, 200)}`).toBe(200);
    }
    // and the stored object can still be patched, updated and listed. (Its
    // managedFields mirror `data` three levels further down, so a PUT leaves
    // them out, as kubectl does; upstream is the same at its own limit.)
    expect((await req('PATCH', path, '{"metadata":{"labels":{"x":"y"}}}', MERGE)).status).toBe(200);
    const live = (await req('GET', path)).json;
    delete live.metadata.managedFields;
    const put = await req('PUT', path, JSON.stringify(live));
    expect(put.status, put.text.slice(0, 300)).toBe(200);
    expect((await req('GET', CR)).status).toBe(200);
  });

  const pastLimit: [string, Send, number, string, string][] = [
    ['create, JSON', () => req('POST', CR, revisionJSON(fresh('j'), jsonObjects(L))), 400, 'BadRequest', `${NOT_HANDLED}json: invalid character '{' ${RAW_DEPTH}`],
    ['create, JSON a million deep', () => req('POST', CR, revisionJSON(fresh('j'), '['.repeat(1_000_000))), 400, 'BadRequest', `json: invalid character '[' ${RAW_DEPTH}`],
    ['create, YAML flow', () => req('POST', CR, revisionYAML(fresh('y'), jsonLists(L)), YAML_CT), 400, 'BadRequest', `${NOT_HANDLED}${YAML_DEPTH}`],
    ['create, YAML block', () => req('POST', CR, revisionYAML(fresh('y'), yamlBlockMaps(L, 2), true), YAML_CT), 400, 'BadRequest', YAML_DEPTH],
    // 2 MB of `[`: the body that took 11 s and 940 MiB
    ['create, YAML two million levels', () => req('POST', CR, revisionYAML(fresh('y'), '['.repeat(2_000_000)), YAML_CT), 400, 'BadRequest', YAML_DEPTH],
    ['create, protobuf RawExtension JSON', () => req('POST', CR, revisionProtobuf(fresh('p'), Buffer.from(jsonObjects(L))), PB), 400, 'BadRequest', PB_DEPTH],
    ['create, protobuf 400,000 nested messages', () => req('POST', CRD, crdProtobufNot(400_000), PB), 400, 'BadRequest', PB_DEPTH],
    [
      'update, JSON',
      async () => {
        const name = await revision();
        return req('PUT', `${CR}/${name}`, revisionJSON(name, jsonLists(L)));
      },
      400,
      'BadRequest',
      RAW_DEPTH,
    ],
    ['merge patch', async () => req('PATCH', `${CR}/${await revision()}`, `{"data":${jsonObjects(L)}}`, MERGE), 400, 'BadRequest', `error decoding patch: json: invalid character '{' ${RAW_DEPTH}`],
    [
      'strategic merge patch',
      async () => req('PATCH', `${CR}/${await revision()}`, `{"data":${jsonLists(L)}}`, SMP),
      400,
      'BadRequest',
      `error decoding patch: json: invalid character '[' ${RAW_DEPTH}`,
    ],
    ['JSON patch body', async () => req('PATCH', `${CR}/${await revision()}`, `[{"op":"add","path":"/data","value":${jsonObjects(L - 1)}}]`, JSONP), 400, 'BadRequest', RAW_DEPTH],
    [
      'apply, YAML',
      async () => {
        const name = fresh('ap');
        return req('PATCH', `${CR}/${name}?fieldManager=t`, revisionYAML(name, yamlBlockMaps(L, 2), true), APPLY);
      },
      400,
      'BadRequest',
      `error decoding YAML: ${YAML_DEPTH}`,
    ],
    [
      'apply, JSON',
      async () => {
        const name = fresh('ap');
        return req('PATCH', `${CR}/${name}?fieldManager=t`, revisionJSON(name, jsonLists(L)), APPLY);
      },
      400,
      'BadRequest',
      `error decoding YAML: ${YAML_DEPTH}`,
    ],
    ['DeleteOptions', async () => req('DELETE', `${CR}/${await revision()}`, jsonLists(1_000_000)), 400, 'BadRequest', RAW_DEPTH],
    // each move puts one 100-level chain inside the next: 2,000 chains, 200,000 levels
    [
      'JSON patch whose moves nest past the limit',
      async () => {
        const name = await revision();
        const chain = jsonObjects(99);
        const ops = [];
        for (let i = 0; i < 2000; i++) {
          ops.push(`{"op":"add","path":"/data/c${i}","value":${chain}}`);
          if (i > 0) ops.push(`{"op":"move","from":"/data/c${i - 1}","path":"/data/c${i}${'/a'.repeat(99)}"}`);
        }
        return req('PATCH', `${CR}/${name}`, `[${ops.join(',')}]`, JSONP);
      },
      422,
      'Invalid',
      `couldn't get version/kind; json parse error: invalid character '{' ${RAW_DEPTH}`,
    ],
  ];

  it.each(pastLimit)('%s: past the limit', async (_n, send, code, reason, message) => {
    expectStatus(await send(), code, reason, message);
    await expectReady();
  });

  it('a CRD schema nested to the limit is validated, stored and served', async () => {
    // CRD (1) > spec > versions > [0] > schema > openAPIV3Schema (6), then two levels per property
    let props = '{"type":"string"}';
    for (let i = 0; i < Math.floor((L - 7) / 2); i++) props = `{"type":"object","properties":{"a":${props}}}`;
    const body = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"deeps.ex.com"},"spec":{"group":"ex.com","scope":"Namespaced","names":{"plural":"deeps","singular":"deep","kind":"Deep","listKind":"DeepList"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":${props}}}]}}`;
    const r = await req('POST', CRD, body);
    expect(r.status, r.text.slice(0, 300)).toBe(201);
    for (const accept of [JSON_CT, YAML_CT, PB]) expect((await req('GET', `${CRD}/deeps.ex.com`, undefined, JSON_CT, accept)).status).toBe(200);
  });

  it('a protobuf CRD nested to the limit decodes (then gets the usual validation answer)', async () => {
    const r = await req('POST', CRD, crdProtobufNot(L - 6), PB);
    expect(r.status, r.text.slice(0, 300)).toBeLessThan(500);
    expect(r.json.message ?? '').not.toContain('max depth');
  });
});

describe('YAML aliases (defect 3)', () => {
  const create = (body: string) => req('POST', CM, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${fresh('a')}\n${body}`, YAML_CT);
  const apply = (body: string) => {
    const name = fresh('a');
    return req('PATCH', `${CM}/${name}?fieldManager=t`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${body}`, APPLY);
  };
  const CM_PREFIX = 'ConfigMap in version "v1" cannot be handled as a ConfigMap: error converting YAML to JSON: yaml: ';
  const APPLY_PREFIX = 'error decoding YAML: error converting YAML to JSON: yaml: ';

  it.each([
    ['an unknown anchor', 'data: *nope\n', "unknown anchor 'nope' referenced"],
    ['a list holding its own alias', 'data: &a [*a]\n', "anchor 'a' value contains itself"],
    ['a map holding its own alias', 'data: &a {x: {y: *a}}\n', "anchor 'a' value contains itself"],
    ['a billion laughs', yamlLaughs(9, 9), 'document contains excessive aliasing'],
  ])('%s: 400 on create and on apply', async (_n, body, problem) => {
    const r = await create(body);
    expectStatus(r, 400, 'BadRequest', CM_PREFIX + problem);
    expect(r.json.message).toBe(CM_PREFIX + problem);
    expectStatus(await apply(body), 400, 'BadRequest', APPLY_PREFIX + problem);
    await expectReady();
  });

  it('aliases within the budget still work', async () => {
    // 5,000 aliases of a small map: 75% of the decoded nodes, under go-yaml's budget
    const r = await create(`data: &d {k: v}\nx: [${Array(5000).fill('*d').join(', ')}]\n`);
    expect(r.status, r.text).toBe(201);
    const r2 = await req('POST', CM, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: aliased, labels: &l {app: x}, annotations: *l}\n', YAML_CT);
    expect(r2.status, r2.text).toBe(201);
    expect(r2.json.metadata.annotations).toEqual({ app: 'x' });
  });
});

describe('strategic merge patches that cannot apply (defect 6)', () => {
  let name: string;
  beforeAll(async () => {
    name = fresh('d');
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    };
    expect((await req('POST', DEPLOY, JSON.stringify(d))).status).toBe(201);
  });
  const pod = (spec: object) => ({ spec: { template: { spec } } });

  // kube-apiserver passes these strategicpatch errors through unclassified (a
  // 500 with reason ""); they are the client's mistake: 400 with the same text
  it.each([
    ['an unknown $patch on a map', { spec: { $patch: 'foo' } }, 'unknown patch type: foo in map: map[$patch:foo]'],
    ['a numeric $patch', { spec: { $patch: 1 } }, 'unknown patch type: %!s(int64=1) in map: map[$patch:1]'],
    ['an unknown $patch in a list', pod({ containers: [{ name: 'c', $patch: 'explode' }] }), 'unknown patch type: explode in map: map[$patch:explode name:c]'],
    ['$patch: merge in a list', pod({ containers: [{ name: 'c', $patch: 'merge' }] }), 'merging lists cannot yet be specified in the patch'],
    ['$setElementOrder that is not a list', pod({ '$setElementOrder/containers': 'x' }), 'expected a []interface {}, but received a string'],
    ['$setElementOrder of scalars for a keyed list', pod({ '$setElementOrder/containers': [1], containers: [{ name: 'c' }] }), 'expected a map[string]interface {}, but received a int64'],
    ['a list item without the merge key', pod({ containers: [{ image: 'x' }] }), 'map: map[image:x] does not contain declared merge key: name'],
    ['$patch: delete without the merge key', pod({ containers: [{ $patch: 'delete' }] }), 'map: map[$patch:delete] does not contain declared merge key: name'],
    ['mixed element types', pod({ containers: [1, { name: 'c' }] }), 'list element types are not identical: '],
    ['a null list item', pod({ containers: [null] }), 'list element types are not identical: '],
    ['a list of lists', pod({ containers: [[1]] }), 'list element types are not identical: '],
    ['$retainKeys that is not a list', { spec: { $retainKeys: 'x' } }, 'invalid patch format of retainKeys'],
    ['$setElementOrder without a field', pod({ $setElementOrder: [] }), 'invalid patch format of setElementOrder list'],
  ])('%s: 400 BadRequest', async (_n, patch, message) => {
    const r = await req('PATCH', `${DEPLOY}/${name}`, JSON.stringify(patch), SMP);
    expectStatus(r, 400, 'BadRequest', message);
  });

  it('the deployment is unchanged and the server ready', async () => {
    const d = (await req('GET', `${DEPLOY}/${name}`)).json;
    expect(d.metadata.generation).toBe(1);
    expect(d.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['c']);
    await expectReady();
  });
});

describe('garbage bodies for every patch type: never a 5xx', () => {
  const garbage: string[] = [
    '',
    ' ',
    'null',
    '0',
    '-1',
    '1e999',
    '"s"',
    'true',
    '[]',
    '{}',
    '[null]',
    '[1]',
    '[[]]',
    '{"a":',
    '{"a" 1}',
    'nul',
    '\u0000',
    '\uFFFD\uFFFE',
    '{"metadata":null}',
    '{"metadata":1}',
    '{"metadata":[]}',
    '{"metadata":{"name":1}}',
    '{"metadata":{"name":"other"}}',
    '{"metadata":{"namespace":"x"}}',
    '{"metadata":{"labels":[1]}}',
    '{"metadata":{"labels":{"a":1}}}',
    '{"metadata":{"annotations":null,"labels":{"":""}}}',
    '{"metadata":{"managedFields":[{}]}}',
    '{"metadata":{"managedFields":[{"fieldsV1":{"f:x":1},"fieldsType":"FieldsV1","manager":"m","operation":"Apply"}]}}',
    '{"metadata":{"resourceVersion":"abc"}}',
    '{"metadata":{"resourceVersion":"999999999"}}',
    '{"metadata":{"uid":"x"}}',
    '{"metadata":{"finalizers":[1]}}',
    '{"metadata":{"ownerReferences":[{}]}}',
    '{"metadata":{"creationTimestamp":"yesterday"}}',
    '{"metadata":{"deletionTimestamp":"2020-01-01T00:00:00Z"}}',
    '{"apiVersion":1}',
    '{"apiVersion":"v2","kind":"Other"}',
    '{"kind":null}',
    '{"spec":[]}',
    '{"spec":null}',
    '{"spec":{"replicas":"x"}}',
    '{"spec":{"replicas":1e308}}',
    '{"spec":{"replicas":-1}}',
    '{"spec":{"template":{"spec":{"containers":{"name":"x"}}}}}',
    '{"spec":{"template":{"spec":{"containers":[{"name":"c","$patch":"delete"},{"$patch":"replace"}]}}}}',
    '{"$patch":"delete"}',
    '{"$patch":"replace"}',
    '{"$patch":"replace","spec":{}}',
    '{"$retainKeys":["x"],"y":1}',
    '{"metadata":{"$deleteFromPrimitiveList/finalizers":"x"}}',
    '{"$setElementOrder/x":[1]}',
    '{"data":{"a":[1,{"b":null}]}}',
    '{"status":{"replicas":"x"}}',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '[{"op":"move"}]',
    '[{"op":"x","path":"/a"}]',
    '[{"op":"add","path":"/spec/template/spec/containers/-1","value":1}]',
    '[{"op":"add","path":"","value":{}}]',
    '[{"op":"remove","path":"/metadata"}]',
    '[{"op":"replace","path":"/metadata/name","value":"x"}]',
    '[{"op":"copy","from":"/spec","path":"/spec/template/x"}]',
    '[{"op":"move","from":"/spec","path":"/spec/x"}]',
    '[{"op":"test","path":"/spec","value":null}]',
    '[{"op":"add","path":"/__proto__/x","value":1}]',
    '[{"op":"add","path":"/a~2b","value":1}]',
    '[{"op":"add","path":"/metadata/labels/x","value":{"y":1}}]',
    '[{"op":"replace","path":"/kind","value":"Pod"}]',
    'a: [',
    '- 1\n- 2',
    'a: !!binary x',
    'a: *b',
    'a: &a [*a]',
    '? [a]\n: 1',
    '%YAML 1.1\n---\na: 1',
    'a: 1\n---\nb: 2',
    '\t- a',
    'a:\n\t- b',
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: other',
    'apiVersion: v1\nkind: ConfigMap',
    'metadata: {name: g}\n<<: {a: 1}',
  ];
  let deployment: string;
  let configmap: string;
  beforeAll(async () => {
    deployment = fresh('gd');
    configmap = fresh('gc');
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: deployment },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    };
    expect((await req('POST', DEPLOY, JSON.stringify(d))).status).toBe(201);
    expect((await req('POST', CM, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: configmap }, data: { a: 'b' } }))).status).toBe(201);
  });

  it.each([
    ['JSON patch', JSONP],
    ['merge patch', MERGE],
    ['strategic merge patch', SMP],
    ['apply', APPLY],
  ])('%s', async (_n, ct) => {
    const failures: string[] = [];
    for (const target of [`${DEPLOY}/${deployment}`, `${DEPLOY}/${deployment}/status`, `${DEPLOY}/${deployment}/scale`, `${CM}/${configmap}`]) {
      for (const body of garbage) {
        const path = ct === APPLY ? `${target}?fieldManager=garbage` : target;
        const r = await req('PATCH', path, body, ct);
        if (r.status >= 500) failures.push(`${target} ${JSON.stringify(body)}: ${r.status} ${r.text.slice(0, 200)}`);
        else if (r.status >= 400 && r.json?.kind !== 'Status') failures.push(`${target} ${JSON.stringify(body)}: ${r.status} without a Status: ${r.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    await expectReady();
  });
});

describe('very many keys (defect 7)', () => {
  it('a YAML body of more tokens than the YAML parser may take: 413 before parsing it all', async () => {
    const labels = Array.from({ length: 150_000 }, (_, i) => `    k${i}: v`).join('\n');
    const r = await req('POST', CM, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${fresh('tokens')}\n  labels:\n${labels}\n`, YAML_CT);
    expectStatus(r, 413, 'RequestEntityTooLarge', 'Request entity too large: a YAML body may have at most 500000 tokens; send large objects as JSON');
    await expectReady();
  });

  it.each([
    ['JSON', JSON_CT, (name: string) => manyLabels(name, 100_000)],
    ['YAML', YAML_CT, (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels:\n${Array.from({ length: 100_000 }, (_, i) => `    k${i}: v`).join('\n')}\n`],
  ])('100,000 labels in %s: answered without a server error', async (_n, ct, make) => {
    const name = fresh('labels');
    const r = await req('POST', CM, make(name), ct);
    // stored, or refused as too large for the store (etcd's 1.5 MiB), as upstream
    expect([201, 413], r.text.slice(0, 300)).toContain(r.status);
    await expectReady();
  });

  it('10,000 labels are stored and selectable', async () => {
    const name = fresh('labels');
    expect((await req('POST', CM, manyLabels(name, 10_000))).status).toBe(201);
    const list = await req('GET', `${CM}?labelSelector=k9999%3Dv`);
    expect(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain(name);
  });
});
