// core/v1 Event rules, one row per rule (status, reason, field, upstream
// text), on create and on update; and what upstream's v1 path accepts.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeMessages, server } from './helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

let n = 0;
const evPath = (ns: string) => `/api/v1/namespaces/${ns}/events`;
const T = '2026-01-01T00:00:00.000000Z';

function ev(ns: string, fields: Record<string, any>) {
  return { apiVersion: 'v1', kind: 'Event', metadata: { name: `e${++n}`, namespace: ns }, ...fields };
}

const legacy = { involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'Started', message: 'm', type: 'Normal', count: 1 };
const modern = { ...legacy, eventTime: T, reportingComponent: 'kubelet', reportingInstance: 'node-1', action: 'Start' };

describe('core/v1 Event', () => {
  it.each([
    [
      'involved namespace differs',
      'default',
      { ...legacy, involvedObject: { kind: 'Pod', name: 'p', namespace: 'kube-system' } },
      'involvedObject.namespace',
      'Invalid value: "kube-system": does not match event.namespace',
    ],
    [
      'empty involved namespace outside default',
      'kube-system',
      { ...legacy, involvedObject: { kind: 'Node', name: 'n' } },
      'involvedObject.namespace',
      'Invalid value: "": does not match event.namespace',
    ],
    [
      'eventTime: empty involved namespace outside default/kube-system',
      'kube-public',
      { ...modern, involvedObject: { kind: 'Node', name: 'n' } },
      'involvedObject.namespace',
      'Invalid value: "": does not match event.namespace',
    ],
    ['eventTime: reportingComponent required', 'default', { ...modern, reportingComponent: undefined }, 'reportingComponent', 'Required value'],
    [
      'eventTime: reportingComponent qualified name',
      'default',
      { ...modern, reportingComponent: 'bad name!' },
      'reportingComponent',
      'Invalid value: "bad name!": name part must consist of alphanumeric characters',
    ],
    ['eventTime: reportingInstance required', 'default', { ...modern, reportingInstance: '' }, 'reportingInstance', 'Required value'],
    ['eventTime: reportingInstance length', 'default', { ...modern, reportingInstance: 'i'.repeat(129) }, 'reportingInstance', 'Invalid value: "": can have at most 128 characters'],
    ['eventTime: action required', 'default', { ...modern, action: undefined }, 'action', 'Required value'],
    ['eventTime: action length', 'default', { ...modern, action: 'a'.repeat(129) }, 'action', 'Invalid value: "": can have at most 128 characters'],
    ['eventTime: reason required', 'default', { ...modern, reason: undefined }, 'reason', 'Required value'],
    ['eventTime: reason length', 'default', { ...modern, reason: 'r'.repeat(129) }, 'reason', 'Invalid value: "": can have at most 128 characters'],
    ['eventTime: message length', 'default', { ...modern, message: 'm'.repeat(1025) }, 'message', 'Invalid value: "": can have at most 1024 characters'],
  ])('%s', async (_name, ns, fields, field, msg) => {
    const r = await call(s, 'POST', evPath(ns), ev(ns, fields));
    expect(r.code, JSON.stringify(r.body)).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    expect(
      causeMessages(r).some((m) => m.startsWith(`${field}: ${msg}`)),
      causeMessages(r).join('\n'),
    ).toBe(true);
  });

  it.each([
    ['legacy event in its namespace', 'default', legacy],
    ['legacy cluster-scoped object from default', 'default', { ...legacy, involvedObject: { kind: 'Node', name: 'n' } }],
    ['eventTime with a cluster-scoped object in kube-system', 'kube-system', { ...modern, involvedObject: { kind: 'Node', name: 'n' } }],
    ['type and count are not checked on v1', 'default', { ...legacy, type: 'Odd', count: -3 }],
    ['message of 1024 characters', 'default', { ...modern, message: 'm'.repeat(1024) }],
  ])('accepts: %s', async (_name, ns, fields) => {
    const r = await call(s, 'POST', evPath(ns), ev(ns, fields));
    expect(r.code, JSON.stringify(r.body)).toBe(201);
  });

  it('update runs the same rules', async () => {
    const c = await call(s, 'POST', evPath('default'), ev('default', modern));
    expect(c.code).toBe(201);
    const ok = await call(s, 'PUT', `${evPath('default')}/${c.body.metadata.name}`, { ...c.body, count: 2 });
    expect(ok.code, JSON.stringify(ok.body)).toBe(200);
    const bad = await call(s, 'PUT', `${evPath('default')}/${c.body.metadata.name}`, { ...ok.body, action: '' });
    expect(bad.code).toBe(422);
    expect(causeMessages(bad)).toContain('action: Required value');
  });
});
