// End-to-end: @kubernetes/client-node against an in-process server, as the
// README shows it: typed CRUD, list with selectors, a watch, and errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let server: RunningServer;
let kc: k8s.KubeConfig;

beforeAll(async () => {
  server = await startServer({ authorizationMode: ['AlwaysAllow'] });
  kc = new k8s.KubeConfig();
  kc.loadFromString(server.kubeconfig);
});
afterAll(async () => {
  await server?.stop();
});

describe('client-node', () => {
  it('creates, reads, lists and deletes ConfigMaps', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'demo', labels: { app: 'x' } }, data: { a: '1' } } });
    const got = await core.readNamespacedConfigMap({ namespace: 'default', name: 'demo' });
    expect(got.data).toEqual({ a: '1' });
    const list = await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'app=x' });
    expect(list.items.map((i) => i.metadata?.name)).toEqual(['demo']);
    // a ConfigMap's delete answers a Status, which the client parses as V1Status
    const deleted = await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'demo' });
    expect(deleted).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'demo', kind: 'configmaps' } });
    await expect(core.readNamespacedConfigMap({ namespace: 'default', name: 'demo' })).rejects.toMatchObject({ code: 404 });
  });

  it('creates a Deployment through the apps API and conflicts on a stale update', async () => {
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const d = await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
      },
    });
    expect(d.metadata?.generation).toBe(1);
    const stale = { ...d, metadata: { ...d.metadata, resourceVersion: '1' } };
    await expect(apps.replaceNamespacedDeployment({ namespace: 'default', name: 'web', body: stale })).rejects.toMatchObject({ code: 409 });
  });

  it('watches changes', async () => {
    const events: string[] = [];
    const watch = new k8s.Watch(kc);
    const req = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      { fieldSelector: 'metadata.name=w' },
      (type, obj) => {
        events.push(`${type} ${obj.metadata.name}`);
      },
      () => {},
    );
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await new Promise((r) => setTimeout(r, 200));
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'w' } } });
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'w' });
    const deadline = Date.now() + 5000;
    while (events.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    req.abort();
    expect(events).toEqual(['ADDED w', 'DELETED w']);
  });
});
