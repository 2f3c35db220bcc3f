// The reloadable chain of --authorization-config: built in the file's order
// after system:masters, re-read on checkFile(), reorder-only for the
// non-webhook types, a bad reload keeping the old chain, and an atomic swap.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../auth/user.ts';
import { resourceAttributes } from '../attributes.ts';
import { type AuthorizationMode, NO_OPINION, privilegedGroups } from '../authorizer.ts';
import { ReloadableAuthorization } from './reloadable.ts';

const dir = mkdtempSync(join(tmpdir(), 'authz-reload-'));
const kubeconfig = join(dir, 'wh.kubeconfig');
writeFileSync(
  kubeconfig,
  'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:1/authorize\ncontexts:\n- name: c\n  context:\n    cluster: c\ncurrent-context: c\n',
);
const file = join(dir, 'authz.yaml');
const webhook = (name: string) => ({
  type: 'Webhook',
  name,
  webhook: { timeout: '1s', subjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion', connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig } },
});
const write = (authorizers: unknown[]) => writeFileSync(file, JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthorizationConfiguration', authorizers }));

/** Stand-ins for the server's single instances: each allows its own user. */
const built: string[] = [];
function buildMode(type: string): AuthorizationMode {
  built.push(type);
  return {
    name: type,
    authorizer: { authorize: (a) => (a.user.name === type ? { decision: 'allow', reason: '' } : NO_OPINION) },
    ruleResolver: { rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }) },
  };
}

const open: ReloadableAuthorization[] = [];
afterEach(() => {
  open.splice(0).forEach((c) => c.close());
  built.length = 0;
});
function make(logs: string[] = []): ReloadableAuthorization {
  const c = new ReloadableAuthorization({
    file,
    first: privilegedGroups(['system:masters']),
    buildMode,
    now: () => 0,
    log: (m) => logs.push(m),
    intervalMs: 0,
    sleep: async () => {},
    retryBackoff: { durationMs: 1, factor: 1, jitter: 0, steps: 1 },
  });
  open.push(c);
  return c;
}
const user = (name: string): UserInfo => ({ name, groups: [] });

describe('reload', () => {
  it('builds the file order once per type, and a reorder swaps the chain without rebuilding them', async () => {
    write([{ type: 'RBAC', name: 'rbac' }, webhook('a'), { type: 'Node', name: 'node' }]);
    const logs: string[] = [];
    const c = make(logs);
    expect(c.modes).toEqual(['RBAC', 'Webhook/a', 'Node']);
    expect(built).toEqual(['RBAC', 'Node']);
    expect((await c.authorize(resourceAttributes(user('Node'), 'get', { resource: 'pods' }))).decision).toBe('allow');
    expect(c.checkFile()).toBe(false);
    write([webhook('b'), { type: 'Node', name: 'node' }, webhook('a'), { type: 'RBAC', name: 'rbac' }]);
    expect(c.checkFile()).toBe(true);
    expect(c.modes).toEqual(['Webhook/b', 'Node', 'Webhook/a', 'RBAC']);
    expect(built).toEqual(['RBAC', 'Node']);
    expect(logs.at(-1)).toBe('reloaded authorization config: Webhook/b,Node,Webhook/a,RBAC');
  });
  it.each([
    ['removing a type', [webhook('a')], 'missing required types: [RBAC]'],
    [
      'adding Node, which was not there at start',
      [
        { type: 'RBAC', name: 'rbac' },
        { type: 'Node', name: 'node' },
      ],
      'authorizer type Node is not allowed if it was not enabled at initial server startup',
    ],
    ['an invalid file', [{ type: 'RBAC', name: 'x' }], 'expected name rbac for authorizer RBAC instead of x'],
    [
      'a webhook kubeconfig that cannot be read',
      [
        { type: 'RBAC', name: 'rbac' },
        { ...webhook('a'), webhook: { ...webhook('a').webhook, connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: dir } } },
      ],
      'must be a regular file',
    ],
  ])('a bad reload (%s) keeps the old chain and says why', (_n, authorizers, why) => {
    write([{ type: 'RBAC', name: 'rbac' }]);
    const logs: string[] = [];
    const c = make(logs);
    write(authorizers);
    expect(c.checkFile()).toBe(false);
    expect(c.modes).toEqual(['RBAC']);
    expect(logs.at(-1)).toContain(why);
    expect(logs.at(-1)).toContain('keeping the previous configuration');
  });
  it('AlwaysAllow and AlwaysDeny may be added later (as upstream)', () => {
    write([{ type: 'RBAC', name: 'rbac' }]);
    const c = make();
    write([
      { type: 'AlwaysDeny', name: 'alwaysdeny' },
      { type: 'RBAC', name: 'rbac' },
    ]);
    expect(c.checkFile()).toBe(true);
    expect(c.modes).toEqual(['AlwaysDeny', 'RBAC']);
  });
  it('a missing file at reload keeps the chain', () => {
    write([{ type: 'RBAC', name: 'rbac' }]);
    const logs: string[] = [];
    const c = new ReloadableAuthorization({ file, first: privilegedGroups([]), buildMode, now: () => 0, log: (m) => logs.push(m), intervalMs: 0 });
    open.push(c);
    writeFileSync(file, '');
    expect(c.checkFile()).toBe(false);
    expect(logs.at(-1)).toContain('at least one authorization mode must be defined');
    expect(c.modes).toEqual(['RBAC']);
  });
  it('a request in flight finishes with the chain it started with', async () => {
    write([{ type: 'RBAC', name: 'rbac' }]);
    const c = make();
    const a = resourceAttributes(user('RBAC'), 'get', { resource: 'pods' });
    const inFlight = c.authorize(a); // the old chain is already chosen
    write([
      { type: 'AlwaysDeny', name: 'alwaysdeny' },
      { type: 'RBAC', name: 'rbac' },
    ]);
    c.checkFile();
    expect((await inFlight).decision).toBe('allow');
    expect(c.modes).toEqual(['AlwaysDeny', 'RBAC']);
  });
  it('system:masters are asked first', async () => {
    write([{ type: 'AlwaysDeny', name: 'alwaysdeny' }]);
    const c = make();
    expect((await c.authorize(resourceAttributes({ name: 'x', groups: ['system:masters'] }, 'delete', { resource: 'pods' }))).decision).toBe('allow');
  });
  it('a webhook that cannot be reached gives no opinion with an error (failurePolicy NoOpinion)', async () => {
    write([webhook('a')]);
    const r = await make().authorize(resourceAttributes(user('x'), 'get', { resource: 'pods' }));
    expect(r.decision).toBe('noopinion');
    expect(r.error).toMatch(/authorization webhook "a": calling the webhook/);
  });
});
