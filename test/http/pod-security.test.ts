// PodSecurity admission through the HTTP API, as kube-apiserver 1.31
// answers: a restricted namespace refuses a privileged Pod with the full
// 403 message; baseline admits an ordinary Pod; a warn label puts a
// Warning header on a Deployment; a pinned enforce version evaluates that
// version's checks; raising a namespace's enforce level warns about the
// Pods already there; invalid labels on a Namespace are 422.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

const P = 'pod-security.kubernetes.io/';

/** The texts of the Warning headers (`299 - "<text>"`, quotes and backslashes escaped). */
function warningsOf(headers: Headers): string[] {
  const out: string[] = [];
  for (const m of (headers.get('warning') ?? '').matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)) out.push(m[1].replace(/\\(.)/g, '$1'));
  return out;
}

const namespace = async (name: string, labels: Record<string, string>) => {
  const r = await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  expect(r.status).toBe(201);
};

const pod = (name: string, container: Record<string, unknown> = {}, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...container }], ...spec },
});
const privileged = (name: string) => pod(name, { securityContext: { privileged: true } });

const RESTRICTED_REST =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe('PodSecurity', () => {
  it('enforce=restricted refuses a privileged Pod with the full message; a compliant Pod is admitted', async () => {
    await namespace('psa-restricted', { [`${P}enforce`]: 'restricted' });
    const r = await call('POST', '/api/v1/namespaces/psa-restricted/pods', privileged('priv'));
    expect(r.status).toBe(403);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `pods "priv" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ${RESTRICTED_REST}`,
      reason: 'Forbidden',
      details: { name: 'priv', kind: 'pods' },
      code: 403,
    });
    const ok = pod(
      'ok',
      { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } },
      { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } },
    );
    const created = await call('POST', '/api/v1/namespaces/psa-restricted/pods', ok);
    expect(created.status).toBe(201);
    expect(warningsOf(created.headers)).toEqual([]);
  });

  it('enforce=baseline admits an ordinary Pod and refuses a privileged one; a dry run is refused the same way', async () => {
    await namespace('psa-baseline', { [`${P}enforce`]: 'baseline' });
    expect((await call('POST', '/api/v1/namespaces/psa-baseline/pods', pod('plain'))).status).toBe(201);
    const refused = await call('POST', '/api/v1/namespaces/psa-baseline/pods?dryRun=All', privileged('priv'));
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
  });

  it('the ephemeralcontainers subresource is checked; an update that changes nothing checked is not', async () => {
    await namespace('psa-ephemeral', {});
    expect((await call('POST', '/api/v1/namespaces/psa-ephemeral/pods', privileged('p'))).status).toBe(201);
    const label = await call('PATCH', '/api/v1/namespaces/psa-ephemeral', { metadata: { labels: { [`${P}enforce`]: 'baseline' } } }, 'application/merge-patch+json');
    expect(warningsOf(label.headers)).toEqual(['existing pods in namespace "psa-ephemeral" violate the new PodSecurity enforce level "baseline:latest"', 'p: privileged']);
    // the privileged pod may still be relabelled: nothing PodSecurity checks changes
    const relabel = await call('PATCH', '/api/v1/namespaces/psa-ephemeral/pods/p', { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
    expect(relabel.status).toBe(200);
    const debug = (securityContext: Record<string, unknown>) => ({ spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox', securityContext }] } });
    const refused = await call('PATCH', '/api/v1/namespaces/psa-ephemeral/pods/p/ephemeralcontainers', debug({ privileged: true }), 'application/strategic-merge-patch+json');
    expect(refused.status).toBe(403);
    // the whole pod is evaluated, the old container too
    expect(refused.json.message).toBe('pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (containers "c", "dbg" must not set securityContext.privileged=true)');
  });

  it('warn=restricted: a Deployment is created with a Warning header; a Pod too', async () => {
    await namespace('psa-warn', { [`${P}warn`]: 'restricted', [`${P}warn-version`]: 'v1.31' });
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    const r = await call('POST', '/apis/apps/v1/namespaces/psa-warn/deployments', deployment);
    expect(r.status).toBe(201);
    expect(warningsOf(r.headers)).toEqual([`would violate PodSecurity "restricted:v1.31": ${RESTRICTED_REST}`]);
    const p = await call('POST', '/api/v1/namespaces/psa-warn/pods', pod('p'));
    expect(p.status).toBe(201);
    expect(warningsOf(p.headers)).toEqual([`would violate PodSecurity "restricted:v1.31": ${RESTRICTED_REST}`]);
  });

  it('a pinned enforce version evaluates that version: container_engine_t is allowed from v1.31 only', async () => {
    await namespace('psa-v130', { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.30' });
    await namespace('psa-latest', { [`${P}enforce`]: 'baseline' });
    const engine = (name: string) => pod(name, { securityContext: { seLinuxOptions: { type: 'container_engine_t' } } });
    const old = await call('POST', '/api/v1/namespaces/psa-v130/pods', engine('e'));
    expect(old.status).toBe(403);
    expect(old.json.message).toBe(
      'pods "e" is forbidden: violates PodSecurity "baseline:v1.30": seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: type "container_engine_t")',
    );
    expect((await call('POST', '/api/v1/namespaces/psa-latest/pods', engine('e'))).status).toBe(201);
  });

  it('raising the enforce level of a namespace warns about the Pods already there', async () => {
    await namespace('psa-relabel', {});
    for (const name of ['b-priv', 'a-priv']) expect((await call('POST', '/api/v1/namespaces/psa-relabel/pods', privileged(name))).status).toBe(201);
    expect((await call('POST', '/api/v1/namespaces/psa-relabel/pods', pod('host', {}, { hostNetwork: true }))).status).toBe(201);
    const r = await call('PATCH', '/api/v1/namespaces/psa-relabel', { metadata: { labels: { [`${P}enforce`]: 'baseline' } } }, 'application/merge-patch+json');
    expect(r.status).toBe(200);
    expect(r.json.metadata.labels[`${P}enforce`]).toBe('baseline');
    expect(warningsOf(r.headers)).toEqual([
      'existing pods in namespace "psa-relabel" violate the new PodSecurity enforce level "baseline:latest"',
      'a-priv (and 1 other pod): privileged',
      'host: host namespaces',
    ]);
    // relaxing it again checks nothing
    const relaxed = await call('PATCH', '/api/v1/namespaces/psa-relabel', { metadata: { labels: { [`${P}enforce`]: 'privileged' } } }, 'application/merge-patch+json');
    expect(relaxed.status).toBe(200);
    expect(warningsOf(relaxed.headers)).toEqual([]);
  });

  it('a Namespace with an invalid level or version label is 422, created or updated', async () => {
    const r = await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'psa-bad', labels: { [`${P}enforce`]: 'strict' } } });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({
      reason: 'Invalid',
      message: 'Namespace "psa-bad" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
      details: {
        name: 'psa-bad',
        kind: 'Namespace',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "strict": must be one of privileged, baseline, restricted', field: 'metadata.labels[pod-security.kubernetes.io/enforce]' }],
      },
      code: 422,
    });
    await namespace('psa-bad', {});
    const v = await call('PATCH', '/api/v1/namespaces/psa-bad', { metadata: { labels: { [`${P}audit-version`]: 'v1' } } }, 'application/merge-patch+json');
    expect(v.status).toBe(422);
    expect(v.json.message).toBe('Namespace "psa-bad" is invalid: metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: "v1": must be "latest" or "v1.x"');
  });
});
