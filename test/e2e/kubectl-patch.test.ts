// End-to-end: kubectl's everyday write commands — client-side apply (three-way
// strategic merge), edit, label, annotate, patch of every type, scale, set
// image — against a real server process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';

let session: KubectlSession;
let home: string;
const k: Kubectl = (args, opts) => session.k(args, opts);

beforeAll(async () => {
  session = await kubectlSession();
  ({ home } = session);
});
afterAll(async () => {
  await session?.stop();
});
const getJSON = async (...args: string[]) => JSON.parse(ok(await k(['get', ...args, '-o', 'json'])));

function deployment(image: string, ports: number[], extraEnv = true): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: ${image}
        ports:
${ports.map((p) => `        - containerPort: ${p}\n`).join('')}${extraEnv ? '        env:\n        - name: MODE\n          value: prod\n' : ''}`;
}

describe('kubectl apply (client-side, three-way strategic merge)', () => {
  it('creates, then updates with removed fields gone and foreign fields kept', async () => {
    ok(await k(['apply', '-f', '-'], { input: deployment('nginx:1.25', [80, 443]) }));
    let d = await getJSON('deployment', 'web');
    expect(d.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toBeTruthy();
    expect(d.spec.template.spec.containers[0].ports.map((p: any) => p.containerPort)).toEqual([80, 443]);
    // another writer adds a label and an annotation
    ok(await k(['label', 'deployment', 'web', 'owner=team-a']));
    ok(await k(['annotate', 'deployment', 'web', 'note=keep-me']));
    // re-apply: image changed, port 443 and the env var dropped
    ok(await k(['apply', '-f', '-'], { input: deployment('nginx:1.27', [80], false) }));
    d = await getJSON('deployment', 'web');
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('nginx:1.27');
    expect(c.ports.map((p: any) => p.containerPort)).toEqual([80]);
    expect(c.env).toBeUndefined();
    expect(d.metadata.labels.owner).toBe('team-a');
    expect(d.metadata.annotations.note).toBe('keep-me');
    // a Deployment's generation counts its annotations too (upstream's strategy): the annotate and the re-apply
    expect(d.metadata.generation).toBe(3);
  });
});

describe('label and annotate', () => {
  it('add, overwrite, remove', async () => {
    ok(await k(['create', 'configmap', 'la', '--from-literal=a=1']));
    ok(await k(['label', 'cm', 'la', 'tier=front']));
    expect((await k(['label', 'cm', 'la', 'tier=back'])).code).not.toBe(0);
    ok(await k(['label', 'cm', 'la', 'tier=back', '--overwrite']));
    ok(await k(['annotate', 'cm', 'la', 'desc=first']));
    ok(await k(['annotate', 'cm', 'la', 'desc=second', '--overwrite']));
    let cm = await getJSON('cm', 'la');
    expect(cm.metadata.labels.tier).toBe('back');
    expect(cm.metadata.annotations.desc).toBe('second');
    ok(await k(['label', 'cm', 'la', 'tier-']));
    ok(await k(['annotate', 'cm', 'la', 'desc-']));
    cm = await getJSON('cm', 'la');
    expect(cm.metadata.labels?.tier).toBeUndefined();
    expect(cm.metadata.annotations?.desc).toBeUndefined();
  });
});

describe('kubectl patch', () => {
  it('--type=json, merge and strategic', async () => {
    ok(await k(['patch', 'deployment', 'web', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":2}]']));
    expect((await getJSON('deployment', 'web')).spec.replicas).toBe(2);
    ok(await k(['patch', 'deployment', 'web', '--type=merge', '-p', '{"metadata":{"labels":{"merged":"yes"}}}']));
    expect((await getJSON('deployment', 'web')).metadata.labels.merged).toBe('yes');
    ok(await k(['patch', 'deployment', 'web', '--type=strategic', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"busybox"}]}}}}']));
    const names = (await getJSON('deployment', 'web')).spec.template.spec.containers.map((c: any) => c.name);
    expect(names.sort()).toEqual(['sidecar', 'web']);
  });
  it('a failed JSON patch test leaves the object unchanged', async () => {
    const before = await getJSON('deployment', 'web');
    const r = await k(['patch', 'deployment', 'web', '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":99},{"op":"replace","path":"/spec/replicas","value":5}]']);
    expect(r.code).not.toBe(0);
    const after = await getJSON('deployment', 'web');
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });
  it('a patch producing an invalid object is refused', async () => {
    const r = await k(['patch', 'deployment', 'web', '--type=merge', '-p', '{"spec":{"replicas":"many"}}']);
    expect(r.code).not.toBe(0);
  });
});

describe('scale, set image, edit', () => {
  it('kubectl scale uses the scale subresource', async () => {
    ok(await k(['scale', 'deployment', 'web', '--replicas=3']));
    expect((await getJSON('deployment', 'web')).spec.replicas).toBe(3);
    const scale = JSON.parse(ok(await k(['get', '--raw', '/apis/apps/v1/namespaces/default/deployments/web/scale'])));
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 }, status: { selector: 'app=web' } });
  });
  it('kubectl set image', async () => {
    ok(await k(['set', 'image', 'deployment/web', 'web=nginx:1.28']));
    const c = (await getJSON('deployment', 'web')).spec.template.spec.containers.find((x: any) => x.name === 'web');
    expect(c.image).toBe('nginx:1.28');
  });
  it('kubectl edit through an EDITOR script', async () => {
    const editor = join(home, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/a: \\"1\\"/a: \\"edited\\"/" "$1"\n');
    chmodSync(editor, 0o755);
    ok(await k(['create', 'configmap', 'ed', '--from-literal=a=1']));
    ok(await k(['edit', 'configmap', 'ed'], { env: { EDITOR: editor, KUBE_EDITOR: editor } }));
    expect((await getJSON('cm', 'ed')).data.a).toBe('edited');
  });
});
