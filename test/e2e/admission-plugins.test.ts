// End-to-end: --enable-admission-plugins and --disable-admission-plugins on a
// real server process. Unknown and overlapping names stop the server at
// start with kube-apiserver's message; with NamespaceLifecycle and Priority
// disabled, kubectl may create in a namespace that does not exist and name a
// PriorityClass that does not exist, which the default set refuses.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';
import { runCliToExit } from '../support/server-process.ts';

const pod = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { priorityClassName: 'no-such-class', containers: [{ name: 'c', image: 'nginx' }] } });

describe('refused at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'admission-flags-'));
  it.each([
    [['--enable-admission-plugins', 'Foo'], 'Error: enable-admission-plugins plugin "Foo" is unknown'],
    [['--disable-admission-plugins=Bar'], 'Error: disable-admission-plugins plugin "Bar" is unknown'],
    [['--enable-admission-plugins=Priority', '--disable-admission-plugins=Priority'], 'Error: [Priority] in enable-admission-plugins and disable-admission-plugins overlapped'],
  ])('%j', async (args, message) => {
    const r = await runCliToExit(['--data-dir', join(dir, 'x'), '--secure-port', '0', ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(message);
  });
});

describe('the default set and a disabled one', () => {
  let defaults: KubectlSession;
  let disabled: KubectlSession;
  beforeAll(async () => {
    [defaults, disabled] = await Promise.all([kubectlSession([]), kubectlSession(['--disable-admission-plugins', 'Priority,NamespaceLifecycle', '--enable-admission-plugins=NodeRestriction'])]);
  });
  afterAll(async () => {
    await Promise.all([defaults?.stop(), disabled?.stop()]);
  });

  it('NamespaceLifecycle: a create in a missing namespace is refused only while it runs', async () => {
    const refused = await defaults.k(['create', 'configmap', 'c', '-n', 'nowhere']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('namespaces "nowhere" not found');
    expect(ok(await disabled.k(['create', 'configmap', 'c', '-n', 'nowhere']))).toContain('configmap/c created');
  });

  it('Priority: a pod naming a missing PriorityClass is refused only while it runs', async () => {
    const refused = await defaults.k(['create', '-f', '-'], { input: pod('p') });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('no PriorityClass with name no-such-class was found');
    expect(ok(await disabled.k(['create', '-f', '-'], { input: pod('p') }))).toContain('pod/p created');
  });
});
