// An events.k8s.io/v1 Event as tests of the one Event store write it: a
// complete valid object in namespace `default`, about Pod p1, with the
// fields a test varies given as `extra` (undefined drops a field).
import type { Json } from './app-call.ts';

export function newStyleEvent(name: string, extra: Json = {}): Json {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: '2026-01-01T00:00:00.000001Z',
    type: 'Normal',
    reportingController: 'example.com/ctl',
    reportingInstance: 'ctl-1',
    action: 'Sync',
    reason: 'Synced',
    note: 'synced it',
    regarding: { kind: 'Pod', name: 'p1', namespace: 'default', apiVersion: 'v1' },
    ...extra,
  };
}
