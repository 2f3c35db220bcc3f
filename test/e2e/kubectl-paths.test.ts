// End-to-end: the real kubectl against a server process for the path and
// verb rules — `kubectl delete --all -A` (list across namespaces, then one
// DELETE per object under its namespace) still works, while a raw DELETE on
// the all-namespaces collection path is refused with upstream's 405 and
// touches nothing. Each namespace also holds the published kube-root-ca.crt,
// which the root CA publisher writes again once `delete --all` removed it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Kubectl, type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';

let session: KubectlSession;
const k: Kubectl = (args, opts) => session.k(args, opts);

beforeAll(async () => {
  session = await kubectlSession();
  for (const ns of ['e2e-paths-a', 'e2e-paths-b']) {
    ok(await k(['create', 'namespace', ns]));
    for (const name of ['one', 'two']) ok(await k(['create', 'configmap', name, '-n', ns, '--from-literal=a=1']));
    ok(await k(['create', 'secret', 'generic', 'keep', '-n', ns, '--from-literal=a=1']));
  }
  await rootCAIn(['e2e-paths-a', 'e2e-paths-b']);
});
afterAll(async () => {
  await session?.stop();
});

/** Waits until the root CA publisher's kube-root-ca.crt is in each namespace (kubectl is the clock). */
async function rootCAIn(namespaces: string[]): Promise<void> {
  for (const ns of namespaces) {
    let found = false;
    for (let i = 0; i < 100 && !found; i++) found = (await k(['get', 'configmap', 'kube-root-ca.crt', '-n', ns, '-o', 'name'])).code === 0;
    if (!found) throw new Error(`no kube-root-ca.crt in ${ns}`);
  }
}

const ours = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('e2e-paths-'))
    .sort();

describe('kubectl and the all-namespaces paths', () => {
  it('refuses a raw DELETE of every ConfigMap in every namespace with 405', async () => {
    const r = await k(['delete', '--raw', '/api/v1/configmaps']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('the server does not allow this method on the requested resource');
    const left = ours(ok(await k(['get', 'configmaps', '-A', '-o', 'custom-columns=NS:.metadata.namespace,NAME:.metadata.name', '--no-headers'])));
    expect(left.map((l) => l.split(/\s+/).join('/'))).toEqual([
      'e2e-paths-a/kube-root-ca.crt',
      'e2e-paths-a/one',
      'e2e-paths-a/two',
      'e2e-paths-b/kube-root-ca.crt',
      'e2e-paths-b/one',
      'e2e-paths-b/two',
    ]);
  });

  it('deletes with `delete configmaps --all -A` one object at a time, and nothing else', async () => {
    const out = ok(await k(['delete', 'configmaps', '--all', '-A']));
    for (const name of ['one', 'two', 'kube-root-ca.crt']) expect(out).toContain(`configmap "${name}" deleted`);
    // only the published root CA comes back
    await rootCAIn(['e2e-paths-a', 'e2e-paths-b']);
    const left = ours(ok(await k(['get', 'configmaps', '-A', '-o', 'custom-columns=NS:.metadata.namespace,NAME:.metadata.name', '--no-headers'])));
    expect(left.map((l) => l.split(/\s+/).join('/'))).toEqual(['e2e-paths-a/kube-root-ca.crt', 'e2e-paths-b/kube-root-ca.crt']);
    // the secrets beside them are untouched
    const secrets = ours(ok(await k(['get', 'secrets', '-A', '-o', 'custom-columns=NS:.metadata.namespace,NAME:.metadata.name', '--no-headers'])));
    expect(secrets.map((l) => l.split(/\s+/).join('/'))).toEqual(['e2e-paths-a/keep', 'e2e-paths-b/keep']);
  });
});
