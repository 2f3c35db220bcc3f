// End-to-end: kubectl against a real server process with the default
// admission plugins and controllers: `kubectl create quota`, the quota
// controller fills its status, a Pod over it is refused with upstream's
// text as kubectl prints it, and `kubectl describe quota` shows the usage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KubectlSession, kubectlSession, ok } from '../support/kubectl.ts';

/** Polls kubectl until the output is the wanted one (the controller acts on watch events; nothing asserts how long it takes). */
async function eventually(s: KubectlSession, args: string[], want: string): Promise<void> {
  let last = '';
  for (let i = 0; i < 400; i++) {
    last = (await s.k(args)).stdout.trim();
    if (last === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never ${want} (last: ${last})`);
}

describe('ResourceQuota with kubectl', () => {
  let s: KubectlSession;
  beforeAll(async () => {
    s = await kubectlSession([]);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it("refuses the Pod over the quota with upstream's message; describe shows what is used", async () => {
    ok(await s.k(['create', 'namespace', 'team']));
    // its root CA ConfigMap exists before the quota, so the quota's first count includes it
    await eventually(s, ['get', 'configmap', 'kube-root-ca.crt', '-n', 'team', '-o', 'name', '--ignore-not-found'], 'configmap/kube-root-ca.crt');
    expect(ok(await s.k(['create', 'quota', 'small', '--hard=pods=1,count/configmaps=10', '-n', 'team']))).toContain('resourcequota/small created');
    await eventually(s, ['get', 'quota', 'small', '-n', 'team', '-o', 'jsonpath={.status.used.pods}'], '0');
    expect(ok(await s.k(['run', 'first', '--image=nginx', '-n', 'team']))).toContain('pod/first created');
    const refused = await s.k(['run', 'second', '--image=nginx', '-n', 'team']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim()).toBe('Error from server (Forbidden): pods "second" is forbidden: exceeded quota: small, requested: pods=1, used: pods=1, limited: pods=1');
    const described = ok(await s.k(['describe', 'quota', 'small', '-n', 'team']));
    expect(described).toMatch(/^Name:\s+small$/m);
    expect(described).toMatch(/^Resource\s+Used\s+Hard$/m);
    expect(described).toMatch(/^pods\s+1\s+1$/m);
    // kube-root-ca.crt, published by its controller, is counted
    expect(described).toMatch(/^count\/configmaps\s+1\s+10$/m);
  });
});
