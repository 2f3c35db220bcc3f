// End-to-end: places where the real kubectl 1.31 sees exactly what
// kube-apiserver 1.31 answers (metadata.generation per kind, ...), against a
// real server process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';

let session: KubectlSession;
const k: Kubectl = (args, opts) => session.k(args, opts);

beforeAll(async () => {
  session = await kubectlSession();
});
afterAll(async () => {
  await session?.stop();
});

describe('metadata.generation as upstream keeps it', () => {
  it('a ConfigMap has none; a Deployment has 1, then 2 after a spec change, and keeps 2 on a label change', async () => {
    ok(await k(['create', 'configmap', 'gen-cm', '--from-literal=a=1']));
    const cm = JSON.parse(ok(await k(['get', 'configmap', 'gen-cm', '-o', 'json'])));
    expect(cm.metadata).not.toHaveProperty('generation');

    ok(await k(['create', 'deployment', 'gen-dep', '--image=nginx']));
    const created = JSON.parse(ok(await k(['get', 'deployment', 'gen-dep', '-o', 'json'])));
    expect(created.metadata.generation).toBe(1);
    ok(await k(['scale', 'deployment', 'gen-dep', '--replicas=3']));
    const scaled = JSON.parse(ok(await k(['get', 'deployment', 'gen-dep', '-o', 'json'])));
    expect(scaled.metadata.generation).toBe(2);
    ok(await k(['label', 'deployment', 'gen-dep', 'tier=web']));
    const labelled = JSON.parse(ok(await k(['get', 'deployment', 'gen-dep', '-o', 'json'])));
    expect(labelled.metadata.generation).toBe(2);
  });
});
