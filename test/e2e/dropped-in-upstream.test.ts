// End-to-end: upstream OpenAPI v3 documents dropped into a copy of
// api-specs/ in place of ours (node.k8s.io/v1 as the reference publishes
// it, under a name that sorts before meta/; scheduling.k8s.io/v1 in v3
// shape from the reference swagger, under a name that sorts after every
// file), regenerated and served by a real server process. kubectl creates a
// ConfigMap (the dropped documents' ObjectMeta copies, with upstream's
// `default: {}` on creationTimestamp, must not reach other kinds), a
// RuntimeClass and a PriorityClass, lists the built-in PriorityClasses, and
// reads a ConfigMap back in protobuf. Skips without the reference data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../../codegen/generate.ts';
import { copySpecs, referenceDir, runtimeClassDoc, tempDir } from '../codegen/helpers.ts';
import { readReference, upstreamV3Document } from '../codegen/upstream-v3.ts';
import { kubectlFor, ok, type Kubectl } from '../support/kubectl.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { serverFetch } from '../support/server-fetch.ts';
import { loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';

const present = existsSync(runtimeClassDoc);
if (!present) console.warn(`skipping the dropped-in upstream documents e2e test: ${runtimeClassDoc} not found (set SPECSERVER_REFERENCE_DIR)`);

const t = tempDir('e2e-dropin-upstream');
let server: ServerProcess | undefined;
let k: Kubectl;

beforeAll(async () => {
  if (!present) return;
  const specs = copySpecs(join(t.dir, 'specs'));
  rmSync(join(specs, 'node.k8s.io_v1.json'));
  writeFileSync(join(specs, 'a_node.json'), readFileSync(runtimeClassDoc, 'utf8'));
  rmSync(join(specs, 'scheduling.k8s.io_v1.json'));
  writeFileSync(join(specs, 'zz_scheduling.json'), JSON.stringify(upstreamV3Document(readReference(referenceDir), 'scheduling.k8s.io', 'v1')));
  await generate(specs, join(t.dir, 'generated'));
  server = await startServerProcess(['--generated-dir', join(t.dir, 'generated')]);
  const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  const base = kubectlFor(server.kubeconfig);
  k = (args, opts = {}) => base(args, { ...opts, env: { HOME: home, ...(opts.env ?? {}) } });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  t.cleanup();
});

describe.skipIf(!present)('upstream documents dropped in, served by a process', () => {
  it('kubectl creates a ConfigMap with its metadata intact, and reads it back in protobuf', async () => {
    ok(await k(['create', 'configmap', 'plain', '--from-literal=a=1']));
    const cm = JSON.parse(ok(await k(['get', 'configmap', 'plain', '-o', 'json'])));
    expect(typeof cm.metadata.creationTimestamp).toBe('string');
    expect(cm.metadata).not.toHaveProperty('clusterName');
    const res = await serverFetch(`${server!.url}/api/v1/namespaces/default/configmaps/plain`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    const decoded = (await loadKubeProtobuf()).decode(new Uint8Array(await res.arrayBuffer()));
    expect(decoded).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'plain', creationTimestamp: cm.metadata.creationTimestamp }, data: { a: '1' } });
  });

  it('kubectl creates the dropped-in kinds and lists the built-in PriorityClasses', async () => {
    ok(await k(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc' }) }));
    expect(ok(await k(['get', 'runtimeclass', 'gvisor', '-o', 'jsonpath={.handler}']))).toBe('runsc');
    ok(await k(['create', 'priorityclass', 'high', '--value=1000', '--description=dropped in']));
    const names = ok(await k(['get', 'priorityclasses', '-o', 'name']))
      .trim()
      .split('\n')
      .sort();
    expect(names).toEqual(['priorityclass.scheduling.k8s.io/high', 'priorityclass.scheduling.k8s.io/system-cluster-critical', 'priorityclass.scheduling.k8s.io/system-node-critical']);
    const reserved = await k(['create', 'priorityclass', 'system-mine', '--value=1']);
    expect(reserved.code).not.toBe(0);
  });

  it('kubectl explain reads the dropped-in kinds from the served OpenAPI', async () => {
    expect(ok(await k(['explain', 'priorityclass.value']))).toContain('value');
    expect(ok(await k(['explain', 'runtimeclass.handler']))).toContain('handler');
  });
});
