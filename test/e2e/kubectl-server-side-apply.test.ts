// End-to-end: kubectl apply --server-side against a real server process —
// conflicts between field managers as kubectl prints them, force, pruning
// of dropped fields, migration from client-side apply, managed fields, and
// apply to the status subresource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';
import type { ServerProcess } from '../support/server-process.ts';
import { serverFetch } from '../support/server-fetch.ts';

let session: KubectlSession;
let server: ServerProcess;
const k: Kubectl = (args, opts) => session.k(args, opts);

beforeAll(async () => {
  session = await kubectlSession();
  ({ server } = session);
});
afterAll(async () => {
  await session?.stop();
});
const get = async (...args: string[]) => JSON.parse(ok(await k(['get', ...args, '-o', 'json', '--show-managed-fields'])));

const dep = (name: string, replicas: number | undefined, image: string, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
${replicas === undefined ? '' : `  replicas: ${replicas}\n`}  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: main
        image: ${image}
        ports:
        - containerPort: 80
${extra}`;

describe('kubectl apply --server-side', () => {
  it('records ownership, conflicts between managers, and forces', async () => {
    ok(await k(['apply', '--server-side', '--field-manager=alice', '-f', '-'], { input: dep('ssa', 2, 'nginx:1') }));
    const d = await get('deployment', 'ssa');
    const alice = d.metadata.managedFields.find((m: any) => m.manager === 'alice');
    expect(alice).toMatchObject({ operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1' });
    expect(alice.fieldsV1['f:spec']['f:replicas']).toEqual({});
    expect(alice.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"main"}']['f:ports']['k:{"containerPort":80,"protocol":"TCP"}']).toBeTruthy();

    const conflict = await k(['apply', '--server-side', '--field-manager=bob', '-f', '-'], { input: dep('ssa', 5, 'nginx:1') });
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
    expect((await get('deployment', 'ssa')).spec.replicas).toBe(2);

    ok(await k(['apply', '--server-side', '--field-manager=bob', '--force-conflicts', '-f', '-'], { input: dep('ssa', 5, 'nginx:1') }));
    const after = await get('deployment', 'ssa');
    expect(after.spec.replicas).toBe(5);
    const bob = after.metadata.managedFields.find((m: any) => m.manager === 'bob');
    expect(bob.fieldsV1['f:spec']['f:replicas']).toEqual({});
    const alice2 = after.metadata.managedFields.find((m: any) => m.manager === 'alice');
    expect(alice2.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
  });

  it('shares ownership of equal values without conflict', async () => {
    ok(await k(['apply', '--server-side', '--field-manager=carol', '-f', '-'], { input: dep('ssa', 5, 'nginx:1') }));
    const d = await get('deployment', 'ssa');
    const owners = d.metadata.managedFields
      .filter((m: any) => m.fieldsV1?.['f:spec']?.['f:replicas'])
      .map((m: any) => m.manager)
      .sort();
    expect(owners).toEqual(['bob', 'carol']);
  });

  it('removes a field dropped from a re-apply when nobody else owns it', async () => {
    ok(await k(['apply', '--server-side', '--field-manager=dave', '-f', '-'], { input: dep('drop', 1, 'nginx:1', '        env:\n        - name: X\n          value: "1"\n') }));
    expect((await get('deployment', 'drop')).spec.template.spec.containers[0].env).toEqual([{ name: 'X', value: '1' }]);
    ok(await k(['apply', '--server-side', '--field-manager=dave', '-f', '-'], { input: dep('drop', 1, 'nginx:1') }));
    expect((await get('deployment', 'drop')).spec.template.spec.containers[0].env).toBeUndefined();
  });

  it('takes over from client-side apply without conflict', async () => {
    ok(await k(['apply', '-f', '-'], { input: dep('migrate', 1, 'nginx:1') }));
    ok(await k(['apply', '--server-side', '-f', '-'], { input: dep('migrate', 3, 'nginx:2') }));
    const d = await get('deployment', 'migrate');
    expect(d.spec.replicas).toBe(3);
    expect(d.metadata.managedFields.some((m: any) => m.manager === 'kubectl' && m.operation === 'Apply')).toBe(true);
  });

  it('shows managed fields in YAML', async () => {
    const y = ok(await k(['get', 'deployment', 'ssa', '-o', 'yaml', '--show-managed-fields']));
    expect(y).toContain('managedFields:');
    expect(y).toContain('manager: bob');
    expect(y).toContain('f:replicas: {}');
  });

  it('applies to the status subresource (as a controller does; kubectl 1.31 apply has no --subresource)', async () => {
    const r = await serverFetch(`${server.url}/apis/apps/v1/namespaces/default/deployments/ssa/status?fieldManager=ctrl`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ssa\nstatus:\n  replicas: 5\n  readyReplicas: 4\n',
    });
    expect(r.status).toBe(200);
    const d = await get('deployment', 'ssa');
    expect(d.status).toMatchObject({ replicas: 5, readyReplicas: 4 });
    const ctrl = d.metadata.managedFields.find((m: any) => m.manager === 'ctrl');
    expect(ctrl).toMatchObject({ operation: 'Apply', subresource: 'status' });
  });

  it('creates a missing object and refuses a body with managedFields', async () => {
    ok(await k(['apply', '--server-side', '-f', '-'], { input: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fresh\ndata:\n  a: "1"\n' }));
    expect((await get('cm', 'fresh')).data).toEqual({ a: '1' });
    const r = await k(['create', '--raw', '/api/v1/namespaces/default/configmaps', '-f', '-'], { input: '{}' });
    expect(r.code).not.toBe(0);
  });
});
