// Removed group-versions through app.request(), as kube-apiserver 1.31
// answers them: a group it no longer serves at all (extensions) is Go's
// plain-text 404 like any unknown path; a removed version of a group still
// served (policy/v1beta1, batch/v1beta1, flowcontrol v1beta2,
// autoscaling/v2beta2) is the group's 404 Status for an unknown path —
// nothing names the removal. Enabling one with --runtime-config is
// upstream's start-up error, and the store is left closed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuntimeConfigError } from '../../runtime/api/runtime-config.ts';
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

describe('a request under a removed group-version', () => {
  it.each(['/apis/extensions/v1beta1/namespaces/default/deployments', '/apis/extensions/v1beta1/namespaces/default/ingresses/x', '/apis/extensions/v1beta1', '/apis/extensions'])(
    '%s: the plain-text 404 of an unknown group',
    async (path) => {
      const r = await call('GET', path);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ text: '404 page not found\n' });
      expect(r.headers.get('warning')).toBeNull();
    },
  );

  it.each([
    ['GET', '/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets'],
    ['POST', '/apis/policy/v1beta1/namespaces/default/poddisruptionbudgets'],
    ['GET', '/apis/batch/v1beta1/cronjobs'],
    ['GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas'],
    ['GET', '/apis/autoscaling/v2beta2/namespaces/default/horizontalpodautoscalers/x'],
    ['GET', '/apis/policy/v1beta1'],
  ])('%s %s: the 404 Status of an unknown path in a served group', async (method, path) => {
    const r = await call(method, path, method === 'POST' ? {} : undefined);
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' });
    expect(r.headers.get('warning')).toBeNull();
  });
});

describe('--runtime-config naming a removed group-version', () => {
  it.each([
    ['extensions/v1beta1=true', 'unknown api groups extensions'],
    ['policy/v1beta1=true', 'group version policy/v1beta1 that has not been registered'],
  ])('%s: startServer() refuses with "%s" and leaves the data directory free', async (runtimeConfig, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'removed-rc-'));
    try {
      await expect(startServer({ dataDir: dir, insecureServeHTTP: true, runtimeConfig })).rejects.toThrow(new RuntimeConfigError(message));
      // the store was closed: the same directory starts
      const again = await startServer({ dataDir: dir, insecureServeHTTP: true });
      await again.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
