// End-to-end with the real kubectl: core v1 and events.k8s.io/v1 Events are
// one set of objects. An Event created through events.k8s.io/v1 is listed by
// `kubectl get events` (core) with its note as the message, by `kubectl get
// events.events.k8s.io` with the same cells, read back in either group with
// upstream's field names, found by `kubectl events --for` (which selects on
// involvedObject), a core Event is read through events.k8s.io with the
// deprecated fields, and server-side apply sees one field in `note` and
// `message`: applying another message through core conflicts with the
// manager that applied the note through events.k8s.io.
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession, ok, type KubectlSession } from '../support/kubectl.ts';

let session: KubectlSession;
beforeAll(async () => {
  session = await kubectlSession();
});
afterAll(async () => {
  await session?.stop();
});

const newStyle = `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: e2e-new
  namespace: default
eventTime: "2026-01-01T00:00:00.000001Z"
type: Warning
reportingController: example.com/e2e
reportingInstance: e2e-1
action: Probe
reason: Unhealthy
note: readiness probe failed
regarding:
  apiVersion: v1
  kind: Pod
  name: web-0
  namespace: default
`;

const oldStyle = `apiVersion: v1
kind: Event
metadata:
  name: e2e-old
  namespace: default
involvedObject:
  apiVersion: v1
  kind: Pod
  name: web-1
  namespace: default
reason: Pulled
message: pulled the image
source:
  component: kubelet
  host: node-1
count: 3
type: Normal
`;

describe('kubectl and the one set of Events', () => {
  it('an events.k8s.io Event shows in core and in events.k8s.io, as each group names its fields', async () => {
    ok(await session.k(['create', '-f', '-'], { input: newStyle }));
    const core = parse(ok(await session.k(['get', 'events', 'e2e-new', '-o', 'yaml'])));
    expect(core.apiVersion).toBe('v1');
    expect(core.message).toBe('readiness probe failed');
    expect(core.involvedObject.name).toBe('web-0');
    expect(core.reportingComponent).toBe('example.com/e2e');
    const ev = parse(ok(await session.k(['get', 'events.v1.events.k8s.io', 'e2e-new', '-o', 'yaml'])));
    expect(ev.apiVersion).toBe('events.k8s.io/v1');
    expect(ev.note).toBe('readiness probe failed');
    expect(ev.regarding.name).toBe('web-0');
    expect(ev.metadata.resourceVersion).toBe(core.metadata.resourceVersion);

    const table = ok(await session.k(['get', 'events', '--field-selector', 'involvedObject.name=web-0']));
    expect(table).toMatch(/Warning\s+Unhealthy\s+pod\/web-0\s+readiness probe failed/);
    const evTable = ok(await session.k(['get', 'events.events.k8s.io', '--field-selector', 'regarding.name=web-0']));
    expect(evTable).toMatch(/Warning\s+Unhealthy\s+pod\/web-0\s+readiness probe failed/);
  });

  it('kubectl events --for finds an Event whichever group wrote it', async () => {
    ok(await session.k(['create', '-f', '-'], { input: oldStyle }));
    const forNew = ok(await session.k(['events', '--for', 'pod/web-0']));
    expect(forNew).toMatch(/Warning\s+Unhealthy\s+Pod\/web-0\s+readiness probe failed/);
    const forOld = ok(await session.k(['events', '--for', 'pod/web-1']));
    expect(forOld).toMatch(/Normal\s+Pulled\s+Pod\/web-1\s+pulled the image/);
    expect(forOld).not.toContain('web-0');
  });

  it('a core Event read through events.k8s.io carries the deprecated fields', async () => {
    const ev = parse(ok(await session.k(['get', 'events.events.k8s.io', 'e2e-old', '-o', 'yaml'])));
    expect(ev).toMatchObject({ note: 'pulled the image', deprecatedSource: { component: 'kubelet', host: 'node-1' }, deprecatedCount: 3, regarding: { name: 'web-1' } });
  });

  it('kubectl apply --server-side: a core message conflicts with the events.k8s.io note owner; --force-conflicts takes it', async () => {
    const applied = newStyle.replace('e2e-new', 'e2e-ssa');
    ok(await session.k(['apply', '--server-side', '--field-manager=reporter', '-f', '-'], { input: applied }));
    const core = `apiVersion: v1
kind: Event
metadata:
  name: e2e-ssa
  namespace: default
involvedObject:
  apiVersion: v1
  kind: Pod
  name: web-0
  namespace: default
eventTime: "2026-01-01T00:00:00.000001Z"
type: Warning
reportingComponent: example.com/e2e
reportingInstance: e2e-1
action: Probe
reason: Unhealthy
message: liveness probe failed
`;
    const conflict = await session.k(['apply', '--server-side', '--field-manager=rewriter', '-f', '-'], { input: core });
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "reporter": .note');
    ok(await session.k(['apply', '--server-side', '--field-manager=rewriter', '--force-conflicts', '-f', '-'], { input: core }));
    const ev = parse(ok(await session.k(['get', 'events.v1.events.k8s.io', 'e2e-ssa', '-o', 'yaml', '--show-managed-fields'])));
    expect(ev.note).toBe('liveness probe failed');
    const reporter = ev.metadata.managedFields.find((e: { manager: string }) => e.manager === 'reporter');
    expect(reporter.apiVersion).toBe('events.k8s.io/v1');
    expect(reporter.fieldsV1).not.toHaveProperty('f:note');
    const rewriter = ev.metadata.managedFields.find((e: { manager: string }) => e.manager === 'rewriter');
    expect(rewriter.apiVersion).toBe('v1');
    expect(rewriter.fieldsV1).toHaveProperty('f:message');
  });
});
