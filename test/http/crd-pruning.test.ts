// Pruning of custom resources on every read from storage, as the
// apiextensions server prunes while it decodes a stored object: after a CRD
// update drops a field from the schema, an object stored with it no longer
// shows it through GET, LIST (JSON and Table), WATCH (over a socket, written
// straight to it: the direct path), and an update starts from the pruned
// object; a subtree under x-kubernetes-preserve-unknown-fields keeps its
// unknown fields, and the defaults of a field added with the same update
// appear. Nothing is written back by a read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { watchPaths } from '../../runtime/http/handlers/watch.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'widgets.prune.example.com';
const W = '/apis/prune.example.com/v1/namespaces/default/widgets';

/** The schema: the first generation has `x`, the second drops it and adds `added` with a default. */
function schema(second: boolean): Json {
  const spec: Json = {
    type: 'object',
    properties: {
      keep: { type: 'string' },
      nested: { type: 'object', properties: { a: { type: 'integer' }, ...(second ? {} : { b: { type: 'integer' } }) } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      ...(second ? { added: { type: 'string', default: 'yes' } } : { x: { type: 'string' } }),
    },
  };
  return { type: 'object', properties: { spec } };
}

function crd(second: boolean): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: NAME },
    spec: {
      group: 'prune.example.com',
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema(second) },
          additionalPrinterColumns: [{ name: 'Keep', type: 'string', jsonPath: '.spec.keep' }],
        },
      ],
    },
  };
}

const STORED = { keep: 'k', x: 'dropped', nested: { a: 1, b: 2 }, free: { anything: { deep: true } } };
const READ = { keep: 'k', nested: { a: 1 }, free: { anything: { deep: true } }, added: 'yes' };

let storedRv = '';

/** Opens a watch over a socket; resolves with its first `n` events. */
function socketWatch(path: string, n: number): Promise<Json[]> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${s.url}${path}`, { agent: false }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`watch answered ${res.statusCode}`));
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
        const lines = text.split('\n');
        if (lines.length > n) {
          req.destroy();
          resolve(lines.slice(0, n).map((l) => JSON.parse(l) as Json));
        }
      });
    });
    req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
  });
}

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
  expect((await call('POST', CRDS, crd(false))).status).toBe(201);
  const made = await eventually(async () => {
    const r = await call('POST', W, { apiVersion: 'prune.example.com/v1', kind: 'Widget', metadata: { name: 'old' }, spec: STORED });
    return r.status === 201 ? r.json : undefined;
  }, 'widgets served');
  expect(made.spec).toEqual(STORED);
  storedRv = made.metadata.resourceVersion;
  const cur = (await call('GET', `${CRDS}/${NAME}`)).json;
  const next = crd(true);
  next.metadata.resourceVersion = cur.metadata.resourceVersion;
  expect((await call('PUT', `${CRDS}/${NAME}`, next)).status).toBe(200);
  await eventually(async () => ((await call('GET', `${W}/old`)).json.spec?.x === undefined ? true : undefined), 'the new schema served');
});
afterAll(async () => {
  await s?.stop();
});

describe('pruning of custom resources on read', () => {
  it('GET and LIST (from the watch cache and exact) no longer show a dropped field; preserved subtrees stay; new defaults appear', async () => {
    const got = (await call('GET', `${W}/old`)).json;
    expect(got.spec).toEqual(READ);
    expect(got.metadata.resourceVersion).toBe(storedRv);
    const list = (await call('GET', W)).json;
    expect(list.items[0].spec).toEqual(READ);
    const cached = (await call('GET', `${W}?resourceVersion=0`)).json;
    expect(cached.items[0].spec).toEqual(READ);
    const exact = (await call('GET', `${W}?resourceVersion=${storedRv}&resourceVersionMatch=Exact`)).json;
    expect(exact.items[0].spec).toEqual(READ);
  });

  it('a Table with its objects shows the pruned object', async () => {
    const r = await call('GET', `${W}?includeObject=Object`, undefined, 'application/json', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('Table');
    expect(r.json.rows[0].cells[1]).toBe('k');
    expect(r.json.rows[0].object.spec).toEqual(READ);
  });

  it('WATCH over a socket is written straight to it and shows the pruned object (initial events and history)', async () => {
    const before = watchPaths.socket;
    const initial = await socketWatch(`${W}?watch=true&resourceVersion=0&timeoutSeconds=5`, 1);
    expect(initial[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'old' } } });
    expect(initial[0].object.spec).toEqual(READ);
    const replay = await socketWatch(`${W}?watch=true&resourceVersion=${Number(storedRv) - 1}&timeoutSeconds=5`, 1);
    expect(replay[0].object.spec).toEqual(READ);
    expect(watchPaths.socket - before).toBe(2);
  });

  it('two socket watchers of one new event each get it pruned and defaulted', async () => {
    const rv = (await call('GET', W)).json.metadata.resourceVersion;
    const a = socketWatch(`${W}?watch=true&resourceVersion=${rv}&timeoutSeconds=5`, 1);
    const b = socketWatch(`${W}?watch=true&resourceVersion=${rv}&timeoutSeconds=5`, 1);
    // a label: the patch starts from the pruned object, so the event is the pruned object too
    const p = await call('PATCH', `${W}/old`, { metadata: { labels: { w: '1' } } }, 'application/merge-patch+json');
    expect(p.status).toBe(200);
    for (const evs of await Promise.all([a, b])) {
      expect(evs[0].type).toBe('MODIFIED');
      expect(evs[0].object.spec).toEqual(READ);
    }
  });

  it('an update starts from the pruned object: what it writes has no dropped field', async () => {
    const p = await call('PATCH', `${W}/old`, { spec: { keep: 'k2' } }, 'application/merge-patch+json');
    expect(p.status).toBe(200);
    expect(p.json.spec).toEqual({ ...READ, keep: 'k2' });
    // stored: a schema that describes x again shows that it is gone
    const cur = (await call('GET', `${CRDS}/${NAME}`)).json;
    const back = crd(false);
    back.metadata.resourceVersion = cur.metadata.resourceVersion;
    expect((await call('PUT', `${CRDS}/${NAME}`, back)).status).toBe(200);
    const again = await eventually(async () => {
      const g = (await call('GET', `${W}/old`)).json;
      // the first schema has no `added`: it is pruned away again, and x never comes back
      return g.spec?.added === undefined ? g : undefined;
    }, 'the first schema served again');
    expect(again.spec).toEqual({ keep: 'k2', nested: { a: 1 }, free: { anything: { deep: true } } });
  });
});
