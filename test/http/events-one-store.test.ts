// Core v1 Events and events.k8s.io/v1 Events are one store, as upstream's:
// stored once as core v1 Events under core's key, answered in the version of
// each request with upstream's field mapping (note ⇄ message, regarding ⇄
// involvedObject, deprecated* ⇄ the core fields, reportingController ⇄
// reportingComponent); resourceVersions and watches are shared, field
// selectors work in both groups' labels, the rules follow the request's
// version with core's field paths, and Tables come in both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json, watchUntil } from '../support/app-call.ts';
import { newStyleEvent } from '../support/events.ts';

let s: RunningServer;
const call = appCaller(() => s);

const NS = 'default';
const CORE = `/api/v1/namespaces/${NS}/events`;
const EVENTS = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;

async function stored(name: string): Promise<Json> {
  const obj = await s.storage.base.get(`/registry/core/events/${NS}/${name}`);
  if (!obj) throw new Error(`event ${name} is not stored under core's key`);
  return obj;
}

const newStyle = newStyleEvent;

function oldStyle(name: string, extra: Json = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { kind: 'Pod', name: 'p2', namespace: NS, apiVersion: 'v1' },
    reason: 'Pulled',
    message: 'pulled the image',
    source: { component: 'kubelet', host: 'n1' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:05:00Z',
    count: 4,
    type: 'Normal',
    ...extra,
  };
}

/** Reads events of a watch until `n` have come. */
const watchEvents = (path: string, n: number, during: () => Promise<void>): Promise<Json[]> => watchUntil(s, path, n, during);

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

describe('one set of Events in two groups', () => {
  it('created through events.k8s.io: stored as core v1 under core key, read through core and back', async () => {
    const created = await call('POST', EVENTS, newStyle('new-1'));
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    expect(created.json.apiVersion).toBe('events.k8s.io/v1');
    const raw = await stored('new-1');
    expect(raw.apiVersion).toBe('v1');
    expect(raw.message).toBe('synced it');
    expect(raw.note).toBeUndefined();
    const core = await call('GET', `${CORE}/new-1`);
    expect(core.status).toBe(200);
    expect(core.json).toMatchObject({
      apiVersion: 'v1',
      message: 'synced it',
      involvedObject: { kind: 'Pod', name: 'p1' },
      reportingComponent: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      eventTime: '2026-01-01T00:00:00.000001Z',
    });
    expect(core.json.regarding).toBeUndefined();
    expect(core.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    expect(core.json.metadata.uid).toBe(created.json.metadata.uid);
    const back = await call('GET', `${EVENTS}/new-1`);
    expect(back.json).toEqual(created.json);
  });

  it('created through core: read through events.k8s.io with the deprecated fields', async () => {
    const created = await call('POST', CORE, oldStyle('old-1'));
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const ev = await call('GET', `${EVENTS}/old-1`);
    expect(ev.status).toBe(200);
    expect(ev.json).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      note: 'pulled the image',
      regarding: { kind: 'Pod', name: 'p2' },
      deprecatedSource: { component: 'kubelet', host: 'n1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:05:00Z',
      deprecatedCount: 4,
    });
    for (const f of ['message', 'involvedObject', 'source', 'count']) expect(ev.json[f], f).toBeUndefined();
  });

  it('a merge patch through either group changes the one object', async () => {
    expect((await call('POST', CORE, oldStyle('patched'))).status).toBe(201);
    const p1 = await call('PATCH', `${EVENTS}/patched`, { metadata: { labels: { via: 'events' } } }, 'application/merge-patch+json');
    expect(p1.status, JSON.stringify(p1.json)).toBe(200);
    expect(p1.json.deprecatedCount).toBe(4);
    // events.k8s.io may not change the deprecated fields (core's count, by its core path)
    const refused = await call('PATCH', `${EVENTS}/patched`, { deprecatedCount: 5 }, 'application/merge-patch+json');
    expect(refused.status).toBe(422);
    expect(refused.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: 5: field is immutable', field: 'count' }]);
    const p2 = await call('PATCH', `${CORE}/patched`, { count: 6 }, 'application/merge-patch+json');
    expect(p2.status).toBe(200);
    expect(p2.json.metadata.labels).toEqual({ via: 'events' });
    const ev = await call('GET', `${EVENTS}/patched`);
    expect(ev.json.deprecatedCount).toBe(6);
    expect(ev.json.metadata.resourceVersion).toBe(p2.json.metadata.resourceVersion);
  });

  it('server-side apply through events.k8s.io, read through core', async () => {
    const body = JSON.stringify(newStyle('applied'));
    const r = await call('PATCH', `${EVENTS}/applied?fieldManager=me`, body, 'application/apply-patch+yaml');
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const core = await call('GET', `${CORE}/applied`);
    expect(core.json.message).toBe('synced it');
    expect(core.json.metadata.managedFields.map((m: Json) => [m.manager, m.apiVersion])).toEqual([['me', 'events.k8s.io/v1']]);
  });

  it('a list in either group holds the same objects at the same resourceVersion', async () => {
    expect((await call('POST', CORE, oldStyle('listed'))).status).toBe(201);
    const core = await call('GET', CORE);
    const ev = await call('GET', EVENTS);
    expect(ev.json.metadata.resourceVersion).toBe(core.json.metadata.resourceVersion);
    expect(ev.json.items.map((i: Json) => i.metadata.name).sort()).toEqual(core.json.items.map((i: Json) => i.metadata.name).sort());
    for (const i of ev.json.items) expect(i.apiVersion).toBe('events.k8s.io/v1');
    expect(ev.json.items.find((i: Json) => i.metadata.name === 'listed').note).toBe('pulled the image');
  });

  it('a watch through events.k8s.io sees a core create and update, converted, at the same resourceVersions', async () => {
    const start = (await call('GET', CORE)).json.metadata.resourceVersion;
    let createdRv = '';
    let updatedRv = '';
    const got = await watchEvents(`${EVENTS}?watch=true&resourceVersion=${start}&fieldSelector=metadata.name=watched`, 2, async () => {
      const c = await call('POST', CORE, oldStyle('watched'));
      createdRv = c.json.metadata.resourceVersion;
      const u = await call('PATCH', `${CORE}/watched`, { message: 'again' }, 'application/merge-patch+json');
      updatedRv = u.json.metadata.resourceVersion;
    });
    expect(got.map((e) => [e.type, e.object.apiVersion, e.object.metadata.resourceVersion, e.object.note])).toEqual([
      ['ADDED', 'events.k8s.io/v1', createdRv, 'pulled the image'],
      ['MODIFIED', 'events.k8s.io/v1', updatedRv, 'again'],
    ]);
  });

  it('a watch through core sees an events.k8s.io create, converted', async () => {
    const start = (await call('GET', EVENTS)).json.metadata.resourceVersion;
    const got = await watchEvents(`${CORE}?watch=true&resourceVersion=${start}&fieldSelector=involvedObject.name=p1,metadata.name=watched-new`, 1, async () => {
      expect((await call('POST', EVENTS, newStyle('watched-new'))).status).toBe(201);
    });
    expect(got[0].type).toBe('ADDED');
    expect(got[0].object).toMatchObject({ apiVersion: 'v1', message: 'synced it', reportingComponent: 'example.com/ctl' });
  });
});

describe('field selectors in both groups', () => {
  beforeAll(async () => {
    expect((await call('POST', CORE, oldStyle('sel-old', { involvedObject: { kind: 'Node', name: 'n9', namespace: NS } }))).status).toBe(201);
    expect((await call('POST', EVENTS, newStyle('sel-new', { regarding: { kind: 'Node', name: 'n9', namespace: NS }, reportingController: 'sel.io/ctl' }))).status).toBe(201);
  });
  const names = async (path: string, selector: string) => {
    const r = await call('GET', `${path}?fieldSelector=${encodeURIComponent(selector)}`);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json.items.map((i: Json) => i.metadata.name).sort();
  };
  it.each([
    ['core involvedObject.kind', CORE, 'involvedObject.kind=Node', ['sel-new', 'sel-old']],
    ['events.k8s.io regarding.kind', EVENTS, 'regarding.kind=Node', ['sel-new', 'sel-old']],
    ['events.k8s.io regarding.name and reason', EVENTS, 'regarding.name=n9,reason=Pulled', ['sel-old']],
    ['events.k8s.io reportingController', EVENTS, 'reportingController=sel.io/ctl', ['sel-new']],
    ['core reportingComponent', CORE, 'reportingComponent=sel.io/ctl', ['sel-new']],
    ['events.k8s.io source (the core label, as upstream keeps it)', EVENTS, 'source=kubelet,regarding.kind=Node', ['sel-old']],
    ['events.k8s.io type !=', EVENTS, 'regarding.kind=Node,type!=Normal', []],
  ])('%s', async (_name, path, selector, want) => {
    expect(await names(path, selector)).toEqual(want);
  });
  it.each([
    [EVENTS, 'involvedObject.kind=Node', 'involvedObject.kind'],
    [EVENTS, 'reportingComponent=x', 'reportingComponent'],
    [CORE, 'regarding.kind=Node', 'regarding.kind'],
  ])('%s refuses %s', async (path, selector, label) => {
    const r = await call('GET', `${path}?fieldSelector=${encodeURIComponent(selector)}`);
    expect(r.status).toBe(400);
    expect(r.json.message).toBe(`field label not supported: ${label}`);
  });
});

describe('the rules follow the request version, with core field paths', () => {
  const causes = (r: { json: Json }) => (r.json.details?.causes ?? []).map((c: Json) => `${c.field}: ${c.message}`);
  it.each([
    ['events.k8s.io: eventTime required', EVENTS, newStyle('bad-1', { eventTime: undefined }), 'eventTime: Required value'],
    ['events.k8s.io: reportingController by its own name', EVENTS, newStyle('bad-2', { reportingController: undefined }), 'reportingController: Required value'],
    ['events.k8s.io: the note as core message', EVENTS, newStyle('bad-3', { note: 'x'.repeat(1025) }), 'message: Invalid value: "": can have at most 1024 characters'],
    ['events.k8s.io: deprecatedCount as count', EVENTS, newStyle('bad-4', { deprecatedCount: 2 }), 'count: Invalid value: "": needs to be unset'],
    ['events.k8s.io: deprecatedSource as source', EVENTS, newStyle('bad-5', { deprecatedSource: { host: 'h' } }), 'source: Invalid value: "": needs to be unset'],
    [
      'events.k8s.io: no regarding as involvedObject',
      EVENTS,
      newStyle('bad-6', { eventTime: undefined, regarding: undefined }),
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
    ],
    ['core: reportingComponent by its own name', CORE, oldStyle('bad-7', { eventTime: '2026-01-01T00:00:00.000000Z', action: 'A' }), 'reportingComponent: Required value'],
  ])('%s', async (_name, path, body, cause) => {
    // a namespace other than default: an empty involved namespace does not match
    const r = await call('POST', path.replace(`/${NS}/`, '/kube-public/'), { ...body, regarding: body.regarding && { ...body.regarding, namespace: 'kube-public' } });
    expect(r.status, JSON.stringify(r.json)).toBe(422);
    expect(causes(r)).toContain(cause);
  });

  it('core writes skip the events.k8s.io rules: no type, deprecated fields set', async () => {
    expect((await call('POST', CORE, oldStyle('core-free', { type: undefined }))).status).toBe(201);
  });

  it('an update through events.k8s.io may change only the series; core may change more', async () => {
    const c = await call('POST', EVENTS, newStyle('upd'));
    expect(c.status).toBe(201);
    const series = await call('PUT', `${EVENTS}/upd`, { ...c.json, series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' } });
    expect(series.status, JSON.stringify(series.json)).toBe(200);
    const note = await call('PUT', `${EVENTS}/upd`, { ...series.json, note: 'changed' });
    expect(note.status).toBe(422);
    expect(causes(note)).toContain('message: Invalid value: "changed": field is immutable');
    const core = await call('GET', `${CORE}/upd`);
    expect((await call('PUT', `${CORE}/upd`, { ...core.json, message: 'changed' })).status).toBe(200);
  });
});

describe('tables and errors', () => {
  it('a Table in both groups, with the same cells', async () => {
    expect((await call('POST', CORE, oldStyle('tabled'))).status).toBe(201);
    const accept = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
    const core = await call('GET', `${CORE}/tabled`, undefined, undefined, accept);
    const ev = await call('GET', `${EVENTS}/tabled`, undefined, undefined, accept);
    expect(core.json.kind).toBe('Table');
    expect(ev.json.columnDefinitions.map((c: Json) => c.name)).toEqual(core.json.columnDefinitions.map((c: Json) => c.name));
    expect(ev.json.rows[0].cells).toEqual(core.json.rows[0].cells);
    expect(core.json.rows[0].cells).toContain('pulled the image');
  });

  it('protobuf in both groups: each answer carries its own group-version and kind', async () => {
    expect((await call('POST', EVENTS, newStyle('in-proto'))).status).toBe(201);
    for (const [path, gv] of [
      [`${CORE}/in-proto`, 'v1'],
      [`${EVENTS}/in-proto`, 'events.k8s.io/v1'],
    ]) {
      const res = await s.app.request(path, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
      const bytes = Buffer.from(await res.arrayBuffer());
      // magic, then the Unknown envelope's TypeMeta (field 1) whose apiVersion is its field 1
      expect([...bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
      expect(bytes[4]).toBe(0x0a);
      expect(bytes[6]).toBe(0x0a);
      expect(bytes.subarray(8, 8 + bytes[7]).toString()).toBe(gv);
      // the note (events.k8s.io) or message (core) inside the raw object
      expect(bytes.includes(Buffer.from('synced it'))).toBe(true);
    }
  });

  it('a name taken through one group is taken in the other', async () => {
    expect((await call('POST', CORE, oldStyle('taken'))).status).toBe(201);
    const again = await call('POST', EVENTS, newStyle('taken'));
    expect(again.status).toBe(409);
  });

  it('a delete through one group removes it from both', async () => {
    expect((await call('POST', EVENTS, newStyle('gone'))).status).toBe(201);
    expect((await call('DELETE', `${CORE}/gone`)).status).toBe(200);
    expect((await call('GET', `${EVENTS}/gone`)).status).toBe(404);
  });
});
