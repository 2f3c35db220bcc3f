// End-to-end: the real helm 3 against a real server process — install a
// chart made by `helm create`, list, upgrade, roll back, uninstall.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClients } from '../support/clients.ts';
import { kubectlFor, run, type RunResult } from '../support/kubectl.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

let server: ServerProcess;
let home: string;
let helm: (args: string[]) => Promise<RunResult>;
let k: (args: string[]) => Promise<RunResult>;

beforeAll(async () => {
  server = await startServerProcess();
  home = mkdtempSync(join(tmpdir(), 'helm-home-'));
  const env = { HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
  const bin = ensureClients().helm;
  helm = (args) => run(bin, ['--kubeconfig', server.kubeconfig, ...args], { env, timeoutMs: 60_000 });
  const base = kubectlFor(server.kubeconfig);
  k = (args) => base(args, { env: { HOME: home } });
});
afterAll(async () => {
  await server?.stop();
});

const ok = (r: RunResult) => {
  if (r.code !== 0) throw new Error(`failed (${r.code}): ${r.stderr}\n${r.stdout}`);
  return r.stdout;
};

describe('helm', () => {
  it('installs, upgrades, rolls back and uninstalls a chart', async () => {
    const chart = join(home, 'demo');
    ok(await run(ensureClients().helm, ['create', chart], { env: { HOME: home } }));
    ok(await helm(['install', 'demo', chart, '--namespace', 'default']));
    const list = ok(await helm(['list', '-o', 'json']));
    expect(JSON.parse(list)[0]).toMatchObject({ name: 'demo', status: 'deployed', revision: '1' });
    expect(ok(await k(['get', 'deployment', 'demo', '-o', 'name']))).toBe('deployment.apps/demo\n');
    expect(ok(await k(['get', 'serviceaccount', 'demo', '-o', 'name']))).toBe('serviceaccount/demo\n');
    expect(ok(await k(['get', 'secrets', '-l', 'owner=helm', '-o', 'name']))).toContain('sh.helm.release.v1.demo.v1');

    ok(await helm(['upgrade', 'demo', chart, '--set', 'replicaCount=3']));
    expect(JSON.parse(ok(await k(['get', 'deployment', 'demo', '-o', 'json']))).spec.replicas).toBe(3);
    ok(await helm(['rollback', 'demo', '1']));
    expect(JSON.parse(ok(await k(['get', 'deployment', 'demo', '-o', 'json']))).spec.replicas).toBe(1);
    const history = JSON.parse(ok(await helm(['history', 'demo', '-o', 'json'])));
    expect(history.map((h: any) => h.revision)).toEqual([1, 2, 3]);

    ok(await helm(['uninstall', 'demo']));
    expect((await k(['get', 'deployment', 'demo'])).code).not.toBe(0);
    expect(JSON.parse(ok(await helm(['list', '-o', 'json'])))).toEqual([]);
  });
});
