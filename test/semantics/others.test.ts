// The remaining kinds, one row per rule: PersistentVolume, VolumeAttachment,
// CSIDriver, CSINode, CSIStorageCapacity, ComponentStatus, Event
// (events.k8s.io/v1), APIService, IPAddress, Lease, RuntimeClass and
// metav1.Condition lists (PodDisruptionBudget status).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeMessages, server } from './helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server({ runtimeConfig: 'networking.k8s.io/v1beta1=true' });
});
afterAll(async () => {
  await s?.stop();
});

let n = 0;
const uniq = (p: string) => `${p}-${++n}`;

function expect422(r: { code: number; body: any }, field: string, msg: string) {
  expect(r.code, JSON.stringify(r.body)).toBe(422);
  expect(r.body.reason).toBe('Invalid');
  expect(
    causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`)),
    causeMessages(r).join('\n'),
  ).toBe(true);
}

type Row = [string, Record<string, any>, string, string];

async function rowsFor(path: string, make: (b: Record<string, any>) => object, rows: Row[]) {
  for (const [name, body, field, msg] of rows) {
    const r = await call(s, 'POST', path, make(body));
    try {
      expect422(r, field, msg);
    } catch (e) {
      throw new Error(`${name}: ${(e as Error).message}`, { cause: e });
    }
  }
}

describe('PersistentVolume', () => {
  const PV = '/api/v1/persistentvolumes';
  const pv = (spec: Record<string, any>) => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: uniq('pv') }, spec });
  const good = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } };
  it.each([
    ['capacity required', { ...good, capacity: undefined }, 'spec.capacity', 'Required value'],
    ['access modes required', { ...good, accessModes: [] }, 'spec.accessModes', 'Required value'],
    ['access mode value', { ...good, accessModes: ['ReadWriteSometimes'] }, 'spec.accessModes', 'Unsupported value: "ReadWriteSometimes"'],
    ['ReadWriteOncePod alone', { ...good, accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'] }, 'spec.accessModes', 'Forbidden'],
    ['no source', { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] }, 'spec', 'Required value: must specify a volume type'],
    ['two sources', { ...good, nfs: { server: 's', path: '/x' } }, 'spec.nfs', 'Forbidden: may not specify more than 1 volume type'],
    [
      'local without node affinity',
      { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], local: { path: '/mnt' } },
      'spec.nodeAffinity',
      'Required value: Local volume requires node affinity',
    ],
    ['reclaim policy', { ...good, persistentVolumeReclaimPolicy: 'Keep' }, 'spec.persistentVolumeReclaimPolicy', 'Unsupported value: "Keep"'],
    ['volumeMode', { ...good, volumeMode: 'Raw' }, 'spec.volumeMode', 'Unsupported value: "Raw"'],
  ] as Row[])('%s', async (_n, spec, field, msg) => {
    expect422(await call(s, 'POST', PV, pv(spec)), field, msg);
  });
  it('defaults, Pending, fixed source and volumeMode', async () => {
    const c = await call(s, 'POST', PV, pv(good));
    expect(c.code, JSON.stringify(c.body)).toBe(201);
    expect(c.body.spec).toMatchObject({ persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
    expect(c.body.status.phase).toBe('Pending');
    const u = await call(s, 'PUT', `${PV}/${c.body.metadata.name}`, { ...c.body, spec: { ...c.body.spec, hostPath: { path: '/other' }, volumeMode: 'Block' } });
    expect422(u, 'spec.volumeMode', 'Invalid value: "Block": field is immutable');
    expect(causeMessages(u)).toContain('spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation');
  });
});

describe('VolumeAttachment', () => {
  const VA = '/apis/storage.k8s.io/v1/volumeattachments';
  const va = (spec: Record<string, any>) => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'VolumeAttachment',
    metadata: { name: uniq('va') },
    spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' }, ...spec },
  });
  it('rules', async () => {
    await rowsFor(VA, va, [
      ['no source', { source: {} }, 'spec.source', 'Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName'],
      [
        'two sources',
        { source: { persistentVolumeName: 'p', inlineVolumeSpec: { csi: { driver: 'd', volumeHandle: 'h' } } } },
        'spec.source',
        'Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
      ],
      ['attacher syntax', { attacher: '-bad-' }, 'spec.attacher', 'Invalid value: "-bad-": a CSI driver name'],
      ['nodeName syntax', { nodeName: 'Node_1' }, 'spec.nodeName', 'Invalid value: "Node_1"'],
    ]);
  });
  it('status only through /status; spec fixed', async () => {
    const c = await call(s, 'POST', VA, { ...va({}), status: { attached: true } });
    expect(c.code, JSON.stringify(c.body)).toBe(201);
    expect(c.body.status).toBeUndefined();
    const main = await call(s, 'PUT', `${VA}/${c.body.metadata.name}`, { ...c.body, status: { attached: true } });
    expect(main.body.status).toBeUndefined();
    const st = await call(s, 'PUT', `${VA}/${c.body.metadata.name}/status`, { ...c.body, status: { attached: true } });
    expect(st.body.status.attached).toBe(true);
    expect422(await call(s, 'PUT', `${VA}/${c.body.metadata.name}`, { ...st.body, spec: { ...st.body.spec, nodeName: 'node-2' } }), 'spec', 'Invalid value');
  });
});

describe('CSIDriver, CSINode, CSIStorageCapacity', () => {
  const CD = '/apis/storage.k8s.io/v1/csidrivers';
  it('CSIDriver defaults and immutables', async () => {
    const c = await call(s, 'POST', CD, { apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: 'csi.example.com' }, spec: {} });
    expect(c.code, JSON.stringify(c.body)).toBe(201);
    expect(c.body.spec).toMatchObject({
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false,
      volumeLifecycleModes: ['Persistent'],
    });
    const u = await call(s, 'PUT', `${CD}/csi.example.com`, { ...c.body, spec: { ...c.body.spec, attachRequired: false, fsGroupPolicy: 'File' } });
    // upstream's path for this field has the typo `attachedRequired`
    expect422(u, 'spec.attachedRequired', 'Invalid value: false: field is immutable');
    expect(causeMessages(u).some((m) => m.startsWith('spec.fsGroupPolicy'))).toBe(false);
    const lm = await call(s, 'PUT', `${CD}/csi.example.com`, { ...c.body, spec: { ...c.body.spec, volumeLifecycleModes: ['Ephemeral'] } });
    expect422(lm, 'spec.volumeLifecycleModes', 'Invalid value: []string{"Ephemeral"}: field is immutable');
    // fsGroupPolicy and podInfoOnMount are mutable since 1.29 (the reference swagger says so of podInfoOnMount)
    const m = await call(s, 'PUT', `${CD}/csi.example.com`, { ...c.body, spec: { ...c.body.spec, fsGroupPolicy: 'File', podInfoOnMount: true } });
    expect(m.code, JSON.stringify(m.body)).toBe(200);
    expect(m.body.spec).toMatchObject({ fsGroupPolicy: 'File', podInfoOnMount: true });
  });
  it('CSIDriver rules', async () => {
    await rowsFor(CD, (b) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIDriver', metadata: { name: b.name ?? uniq('d.example.com') }, spec: b.spec ?? {} }), [
      ['name syntax', { name: 'bad_name_' }, 'metadata.name', 'Invalid value: "bad_name_": a CSI driver name'],
      ['fsGroupPolicy', { spec: { fsGroupPolicy: 'Sometimes' } }, 'spec.fsGroupPolicy', 'Unsupported value: "Sometimes"'],
      ['lifecycle mode', { spec: { volumeLifecycleModes: ['Forever'] } }, 'spec.volumeLifecycleModes[0]', 'Unsupported value: "Forever"'],
      [
        'token expiry',
        { spec: { tokenRequests: [{ audience: 'a', expirationSeconds: 60 }] } },
        'spec.tokenRequests[0].expirationSeconds',
        'Invalid value: 60: may not specify a duration less than 10 minutes',
      ],
      ['token audience duplicate', { spec: { tokenRequests: [{ audience: 'a' }, { audience: 'a' }] } }, 'spec.tokenRequests[1].audience', 'Duplicate value: "a"'],
    ]);
  });
  it('CSINode rules', async () => {
    const CN = '/apis/storage.k8s.io/v1/csinodes';
    const cn = (b: Record<string, any>) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: uniq('node') }, spec: { drivers: b.drivers } });
    await rowsFor(CN, cn, [
      [
        'duplicate driver',
        {
          drivers: [
            { name: 'd.example.com', nodeID: 'n' },
            { name: 'd.example.com', nodeID: 'n' },
          ],
        },
        'spec.drivers[1].name',
        'Duplicate value: "d.example.com"',
      ],
      ['nodeID required', { drivers: [{ name: 'd.example.com', nodeID: '' }] }, 'spec.drivers[0].nodeID', 'Required value'],
      ['nodeID too long', { drivers: [{ name: 'd.example.com', nodeID: 'x'.repeat(193) }] }, 'spec.drivers[0].nodeID', 'Too long'],
      ['topology key', { drivers: [{ name: 'd.example.com', nodeID: 'n', topologyKeys: ['a b'] }] }, 'spec.drivers[0].topologyKeys[0]', 'Invalid value: "a b"'],
    ]);
    const c = await call(s, 'POST', CN, { ...cn({ drivers: [{ name: 'd.example.com', nodeID: 'n1' }] }), metadata: { name: 'node-a' } });
    expect(c.code).toBe(201);
    expect422(await call(s, 'PUT', `${CN}/node-a`, { ...c.body, spec: { drivers: [{ name: 'd.example.com', nodeID: 'n2' }] } }), 'spec.drivers[0].nodeID', 'Invalid value: "n2": field is immutable');
  });
  it('CSIStorageCapacity rules', async () => {
    const SC = '/apis/storage.k8s.io/v1/namespaces/default/csistoragecapacities';
    const sc = (b: Record<string, any>) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'CSIStorageCapacity', metadata: { name: uniq('cap') }, storageClassName: 'fast', ...b });
    await rowsFor(SC, sc, [
      ['class name syntax', { storageClassName: 'Fast_' }, 'storageClassName', 'Invalid value: "Fast_"'],
      ['negative capacity', { capacity: '-1Gi' }, 'capacity', 'Invalid value: "-1Gi"'],
      ['topology selector', { nodeTopology: { matchExpressions: [{ key: 'k', operator: 'In' }] } }, 'nodeTopology.matchExpressions[0].values', 'Required value'],
    ]);
    const c = await call(s, 'POST', SC, { ...sc({}), metadata: { name: 'cap-fixed' } });
    expect(c.code, JSON.stringify(c.body)).toBe(201);
    const u = await call(s, 'PUT', `${SC}/cap-fixed`, { ...c.body, storageClassName: 'slow', capacity: '5Gi' });
    expect422(u, 'storageClassName', 'Invalid value: "slow": field is immutable');
    expect((await call(s, 'PUT', `${SC}/cap-fixed`, { ...c.body, capacity: '5Gi' })).code).toBe(200);
  });
});

describe('ComponentStatus', () => {
  it('is computed and read-only', async () => {
    const l = await call(s, 'GET', '/api/v1/componentstatuses');
    expect(l.code).toBe(200);
    expect(l.body.items.map((i: any) => i.metadata.name)).toEqual(['controller-manager', 'etcd-0']);
    expect(l.body.items[1].conditions[0]).toMatchObject({ type: 'Healthy', status: 'True' });
    const g = await call(s, 'GET', '/api/v1/componentstatuses/etcd-0');
    expect(g.body.kind).toBe('ComponentStatus');
    expect((await call(s, 'GET', '/api/v1/componentstatuses/nope')).code).toBe(404);
    expect((await call(s, 'POST', '/api/v1/componentstatuses', { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'x' } })).code).toBe(405);
    expect((await call(s, 'DELETE', '/api/v1/componentstatuses/etcd-0')).code).toBe(405);
    const sel = await call(s, 'GET', '/api/v1/componentstatuses?fieldSelector=metadata.name%3Detcd-0');
    expect(sel.body.items.length).toBe(1);
  });
});

describe('Event (events.k8s.io/v1)', () => {
  const EV = '/apis/events.k8s.io/v1/namespaces/default/events';
  const good = {
    eventTime: '2026-01-01T00:00:00.000000Z',
    type: 'Normal',
    reportingController: 'example.com/ctl',
    reportingInstance: 'ctl-1',
    action: 'Sync',
    reason: 'Synced',
    regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
  };
  const ev = (b: Record<string, any>) => ({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: uniq('ev') }, ...good, ...b });
  it('rules', async () => {
    await rowsFor(EV, ev, [
      ['eventTime required', { eventTime: undefined }, 'eventTime', 'Required value'],
      ['type', { type: 'Info' }, 'type', 'Invalid value: "": has invalid value: Info'],
      ['reportingController required', { reportingController: undefined }, 'reportingController', 'Required value'],
      ['reportingInstance length', { reportingInstance: 'x'.repeat(129) }, 'reportingInstance', 'Invalid value: "": can have at most 128 characters'],
      ['action required', { action: undefined }, 'action', 'Required value'],
      ['reason length', { reason: 'x'.repeat(129) }, 'reason', 'Invalid value: "": can have at most 128 characters'],
      // the rules read the stored (core) shape, so their paths are core's, as upstream's
      ['note length', { note: 'x'.repeat(1025) }, 'message', 'Invalid value: "": can have at most 1024 characters'],
      ['deprecatedCount', { deprecatedCount: 3 }, 'count', 'Invalid value: "": needs to be unset'],
      ['deprecatedSource', { deprecatedSource: { component: 'x' } }, 'source', 'Invalid value: "": needs to be unset'],
      ['deprecatedFirstTimestamp', { deprecatedFirstTimestamp: '2026-01-01T00:00:00Z' }, 'firstTimestamp', 'Invalid value: "": needs to be unset'],
      ['series count', { series: { count: 1, lastObservedTime: '2026-01-01T00:00:00.000000Z' } }, 'series.count', 'Invalid value: "": should be at least 2'],
      ['series lastObservedTime', { series: { count: 2 } }, 'series.lastObservedTime', 'Required value'],
      [
        'no eventTime: regarding namespace must match',
        { eventTime: undefined, regarding: { kind: 'Pod', name: 'p', namespace: 'other' } },
        'involvedObject.namespace',
        'Invalid value: "other": does not match event.namespace',
      ],
    ]);
  });
  it('valid, and only series may change', async () => {
    const c = await call(s, 'POST', EV, ev({}));
    expect(c.code, JSON.stringify(c.body)).toBe(201);
    const series = await call(s, 'PUT', `${EV}/${c.body.metadata.name}`, { ...c.body, series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' } });
    expect(series.code, JSON.stringify(series.body)).toBe(200);
    expect422(await call(s, 'PUT', `${EV}/${c.body.metadata.name}`, { ...series.body, reason: 'Other' }), 'reason', 'Invalid value: "Other": field is immutable');
  });
});

describe('APIService', () => {
  const AS = '/apis/apiregistration.k8s.io/v1/apiservices';
  const as = (b: Record<string, any>) => ({
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: b.name ?? 'v1.example.com' },
    spec: { group: 'example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'default', name: 'api' }, ...(b.spec ?? {}) },
  });
  it('rules', async () => {
    await rowsFor(AS, as, [
      ['name', { name: 'example.com.v1' }, 'metadata.name', 'Invalid value: "example.com.v1": must be `spec.version+"."+spec.group`: "v1.example.com"'],
      ['group priority', { spec: { groupPriorityMinimum: 0 } }, 'spec.groupPriorityMinimum', 'Invalid value: 0: must be positive and less than 20000'],
      ['version priority', { spec: { versionPriority: 0 } }, 'spec.versionPriority', 'Invalid value: 0: must be positive and less than 1000'],
      ['service name', { spec: { service: { namespace: 'default' } } }, 'spec.service.name', 'Required value'],
      ['local with caBundle', { spec: { service: undefined, caBundle: 'YWJj' } }, 'spec.caBundle', 'Invalid value'],
    ]);
    expect((await call(s, 'POST', AS, as({}))).code).toBe(201);
  });
});

describe('IPAddress, Lease, RuntimeClass', () => {
  it('IPAddress', async () => {
    const IP = '/apis/networking.k8s.io/v1beta1/ipaddresses';
    const ip = (b: Record<string, any>) => ({ apiVersion: 'networking.k8s.io/v1beta1', kind: 'IPAddress', metadata: { name: b.name }, spec: { parentRef: b.parentRef } });
    await rowsFor(IP, ip, [
      ['not an IP', { name: 'host', parentRef: { resource: 'services', name: 's', namespace: 'default' } }, 'metadata.name', 'Invalid value: "host": must be a valid IP address'],
      [
        'not canonical',
        { name: '2001:db8:0::1', parentRef: { resource: 'services', name: 's', namespace: 'default' } },
        'metadata.name',
        'Invalid value: "2001:db8:0::1": must be in canonical form ("2001:db8::1")',
      ],
      ['parentRef resource', { name: '192.168.9.9', parentRef: { resource: '', name: 's' } }, 'spec.parentRef.resource', 'Required value'],
    ]);
    const c = await call(s, 'POST', IP, ip({ name: '2001:db8::7', parentRef: { group: '', resource: 'services', name: 's', namespace: 'default' } }));
    expect(c.code, JSON.stringify(c.body)).toBe(201);
    expect422(await call(s, 'PUT', `${IP}/2001:db8::7`, { ...c.body, spec: { parentRef: { resource: 'services', name: 't', namespace: 'default' } } }), 'spec.parentRef', 'Invalid value');
  });
  it('Lease', async () => {
    const L = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    await rowsFor(L, (b) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: uniq('lease') }, spec: b }), [
      ['duration', { leaseDurationSeconds: 0 }, 'spec.leaseDurationSeconds', 'Invalid value: 0: must be greater than 0'],
      ['transitions', { leaseTransitions: -1 }, 'spec.leaseTransitions', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
    expect((await call(s, 'POST', L, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'ok' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } })).code).toBe(201);
  });
  it('RuntimeClass', async () => {
    const RC = '/apis/node.k8s.io/v1/runtimeclasses';
    await rowsFor(RC, (b) => ({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: uniq('rc') }, handler: b.handler }), [
      ['handler syntax', { handler: 'Run_C' }, 'handler', 'Invalid value: "Run_C"'],
    ]);
    const c = await call(s, 'POST', RC, { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc' });
    expect(c.code).toBe(201);
    expect422(await call(s, 'PUT', `${RC}/gvisor`, { ...c.body, handler: 'kata' }), 'handler', 'Invalid value: "kata": field is immutable');
  });
});

describe('conditions (PodDisruptionBudget status)', () => {
  const PDB = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
  it('rules', async () => {
    const c = await call(s, 'POST', PDB, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb' }, spec: { minAvailable: 1, selector: { matchLabels: { a: 'b' } } } });
    expect(c.code, JSON.stringify(c.body)).toBe(201);
    const base = { type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', lastTransitionTime: '2026-01-01T00:00:00Z', message: '' };
    const st = (cond: Record<string, any>) => ({ ...c.body, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, conditions: [{ ...base, ...cond }] } });
    const cases: [Record<string, any>, string, string][] = [
      [{ status: 'Maybe' }, 'status.conditions[0].status', 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"'],
      [{ reason: 'not camel' }, 'status.conditions[0].reason', 'Invalid value: "not camel": a condition reason must start with alphabetic character'],
      [{ reason: '' }, 'status.conditions[0].reason', 'Required value'],
      [{ lastTransitionTime: undefined }, 'status.conditions[0].lastTransitionTime', 'Required value: must be set'],
      [{ type: 'bad type' }, 'status.conditions[0].type', 'Invalid value: "bad type"'],
    ];
    for (const [cond, field, msg] of cases) expect422(await call(s, 'PUT', `${PDB}/pdb/status`, st(cond)), field, msg);
    expect((await call(s, 'PUT', `${PDB}/pdb/status`, st({}))).code).toBe(200);
  });
});
