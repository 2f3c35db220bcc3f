// bench/authz: what an RBAC decision costs. GET of one ConfigMap as a user
// bound by a RoleBinding, on a server with --authorization-mode=RBAC and
// 10,000 other RoleBindings (in 50 other namespaces and, in the same
// namespace, for other users), against the same GET on a server with
// --authorization-mode=AlwaysAllow holding the same objects; both plain-HTTP
// child processes with the same token file, measured in interleaved rounds
// (median of the rounds; aim: ratio >= 0.9). A second figure: decide() in-process over the same
// index, µs per decision.
// Usage: npx tsx bench/authz/run.ts [--quick]

import autocannon from 'autocannon';
import { spawnListening } from '../support/process.ts';
import { root, serverCommand } from '../support/servers.ts';
import { loadAverage, median } from '../support/stats.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourceAttributes } from '../../runtime/authz/attributes.ts';
import { decide } from '../../runtime/authz/rbac/authorizer.ts';
import { RbacIndex } from '../../runtime/authz/rbac/index.ts';
import type { Obj } from '../../runtime/storage/interface.ts';

const quick = process.argv.includes('--quick');
const DURATION = quick ? 2 : 5;
const ROUNDS = quick ? 3 : 7;
const OTHER_NAMESPACES = 50;
const BINDINGS = 10_000;
const scratch = mkdtempSync(join(tmpdir(), 'bench-authz-'));
const ADMIN = 'bench-admin-token-0123456789';
const USER = 'bench-user-token-0123456789';
writeFileSync(join(scratch, 'tokens.csv'), `${ADMIN},bench-admin,1,"system:masters"\n${USER},bench-user,2,"devs"\n`);

/** A plain-HTTP server process in `mode`, with the run's token file and its own data directory. */
const spawnServer = (name: string, mode: string) =>
  spawnListening(
    [...serverCommand(), '--data-dir', join(scratch, name), '--secure-port', '0', '--insecure-serve-http', '--authorization-mode', mode, '--token-auth-file', join(scratch, 'tokens.csv')],
    root,
  );

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const ref = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

/** The objects of the run: the user's Role and RoleBinding in default, and 10,000 RoleBindings that are not the user's. */
function objects(): { namespaces: string[]; mine: Obj[]; others: Obj[] } {
  const namespaces = Array.from({ length: OTHER_NAMESPACES }, (_, i) => `team-${i}`);
  const mine: Obj[] = [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cm-reader', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'cm-reader', namespace: 'default' },
      roleRef: ref('Role', 'cm-reader'),
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }],
    },
  ];
  const others: Obj[] = [];
  for (let i = 0; i < BINDINGS; i++) {
    // a tenth in the user's own namespace for other users, the rest in other namespaces (some for the user's group)
    const namespace = i % 10 === 0 ? 'default' : namespaces[i % OTHER_NAMESPACES];
    const subject = i % 10 !== 0 && i % 7 === 0 ? { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' } : { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: `user-${i}` };
    others.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: `rb-${i}`, namespace },
      roleRef: ref('ClusterRole', i % 2 ? 'view' : 'edit'),
      subjects: [subject],
    });
  }
  return { namespaces, mine, others };
}

async function post(url: string, path: string, body: unknown): Promise<void> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN}` }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
}

/** Creates `items` with `width` requests in flight. */
async function createAll(url: string, items: [string, unknown][], width = 16): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const [path, body] = items[next++];
        await post(url, path, body);
      }
    }),
  );
}

function cannon(url: string): Promise<autocannon.Result> {
  return autocannon({ url, connections: 16, pipelining: 1, duration: DURATION, headers: { authorization: `Bearer ${USER}` } });
}

async function main(): Promise<void> {
  const results: Record<string, string> = {
    'load average at start': loadAverage(),
  };
  const { namespaces, mine, others } = objects();
  const allow = await spawnServer('allow', 'AlwaysAllow');
  const rbac = await spawnServer('rbac', 'RBAC');
  const cmPath = '/api/v1/namespaces/default/configmaps';
  const target = `${cmPath}/bench`;
  try {
    for (const s of [allow, rbac]) await post(s.url, cmPath, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench' }, data: { key: 'value' } });
    // both servers hold the same objects: only the authorizer differs
    for (const s of [allow, rbac]) {
      await createAll(
        s.url,
        namespaces.map((n) => ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } }]),
      );
      const t0 = performance.now();
      await createAll(
        s.url,
        [...mine, ...others].map((o) => [`${RBAC}/namespaces/${o.metadata.namespace}/${o.kind === 'Role' ? 'roles' : 'rolebindings'}`, o]),
      );
      if (s === rbac) results[`created ${others.length + 1} RoleBindings (s)`] = ((performance.now() - t0) / 1000).toFixed(1);
    }
    // the index follows the watch: wait until the user's binding counts
    for (let i = 0; ; i++) {
      const r = await fetch(`${rbac.url}${target}`, { headers: { authorization: `Bearer ${USER}` } });
      if (r.status === 200) break;
      if (i > 600) throw new Error(`the user is still refused: ${r.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const runs: Record<string, () => Promise<autocannon.Result>> = {
      AlwaysAllow: () => cannon(`${allow.url}${target}`),
      RBAC: () => cannon(`${rbac.url}${target}`),
    };
    const figures: Record<string, number[]> = { AlwaysAllow: [], RBAC: [] };
    for (const name of Object.keys(runs)) {
      const r = await runs[name]();
      if (r.non2xx) throw new Error(`${name}: ${r.non2xx} non-2xx answers`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      // interleaved, the order alternating between rounds
      const order = round % 2 ? ['RBAC', 'AlwaysAllow'] : ['AlwaysAllow', 'RBAC'];
      for (const name of order) {
        const r = await runs[name]();
        if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        figures[name].push(r.requests.average);
      }
    }
    for (const [name, xs] of Object.entries(figures)) results[`GET req/s ${name} (median of ${ROUNDS}; rounds ${xs.map((x) => x.toFixed(0)).join(' ')})`] = median(xs).toFixed(0);
    results['ratio RBAC / AlwaysAllow (aim >= 0.9)'] = (median(figures.RBAC) / median(figures.AlwaysAllow)).toFixed(2);
  } finally {
    await Promise.all([allow.stop(), rbac.stop()]);
  }

  // in-process: one decision over an index holding the same objects
  const idx = new RbacIndex();
  idx.replace('ClusterRole', []);
  idx.replace('ClusterRoleBinding', []);
  idx.replace(
    'Role',
    mine.filter((o) => o.kind === 'Role'),
  );
  idx.replace('RoleBinding', [...mine.filter((o) => o.kind === 'RoleBinding'), ...others]);
  const a = resourceAttributes({ name: 'bench-user', groups: ['devs', 'system:authenticated'] }, 'get', { resource: 'configmaps', namespace: 'default', name: 'bench', apiVersion: 'v1' });
  if (decide(idx, a).decision !== 'allow') throw new Error('in-process decision is not allow');
  const N = quick ? 100_000 : 500_000;
  const xs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t = performance.now();
    for (let i = 0; i < N; i++) decide(idx, a);
    xs.push(((performance.now() - t) * 1000) / N);
  }
  results['µs per RBAC decision in-process (median)'] = median(xs).toFixed(3);
  results['load average at end'] = loadAverage();
  for (const [k, v] of Object.entries(results)) console.log(`${k.padEnd(80)} ${v}`);
}

main()
  .finally(() => rmSync(scratch, { recursive: true, force: true }))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
