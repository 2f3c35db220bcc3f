// A server-side apply configuration is a partial object: it says only the
// fields its manager owns, so the fields the schema requires are asked of
// the object it merges into, not of the configuration (upstream validates
// the merged object). A configuration that creates the object must then
// hold them itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const labels = { app: 'web' };
const whole = (name: string): Json => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
});
const replicasOnly = (name: string, replicas: number): Json => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas } });

function apply(collection: string, body: Json, manager: string, force = false) {
  return call('PATCH', `${collection}/${body.metadata.name}?fieldManager=${manager}${force ? '&force=true' : ''}`, body, 'application/apply-patch+yaml');
}

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

describe('partial apply configurations', () => {
  it('a configuration of only spec.replicas applies to a whole Deployment and is owned alone', async () => {
    expect((await apply(DEPLOYMENTS, whole('partial'), 'owner')).status).toBe(201);
    const conflict = await apply(DEPLOYMENTS, replicasOnly('partial', 3), 'scaler');
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe('Apply failed with 1 conflict: conflict with "owner": .spec.replicas');
    const r = await apply(DEPLOYMENTS, replicasOnly('partial', 3), 'scaler', true);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.spec.replicas).toBe(3);
    expect(r.json.spec.template.spec.containers[0].image).toBe('nginx');
    const scaler = r.json.metadata.managedFields.find((e: Json) => e.manager === 'scaler');
    expect(scaler.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('a partial configuration that would create the object is refused for what the merged object lacks', async () => {
    const r = await apply(DEPLOYMENTS, replicasOnly('missing', 2), 'scaler');
    expect(r.status).toBe(422);
    expect(r.json.reason).toBe('Invalid');
    const fields = r.json.details.causes.map((c: Json) => `${c.field} ${c.reason}`);
    expect(fields).toContain('spec.selector FieldValueRequired');
    expect(fields).toContain('spec.template FieldValueRequired');
    expect((await call('GET', `${DEPLOYMENTS}/missing`)).status).toBe(404);
  });

  it('what the configuration says is still checked as sent: a wrong type is a 400', async () => {
    const r = await apply(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed' }, data: { a: 1 } }, 'me');
    expect(r.status).toBe(400);
  });
});
