// Admission of the connect subresources through app.request(): pods/exec,
// attach and portforward and the proxies of pods, services and nodes reach
// both admission halves with the CONNECT operation and the subresource's
// options object decoded from the query, before the object is looked up (a
// plugin's refusal wins over a missing pod); pods/log is a read and is not
// admitted.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionAttributes, AdmissionPlugin } from '../../runtime/admission/chain.ts';
import { ApiError } from '../../runtime/api/errors.ts';
import type { RunningServer } from '../../runtime/index.ts';
import { call, server } from '../semantics/helpers.ts';

let s: RunningServer;
const seen: { half: string; attrs: AdmissionAttributes }[] = [];
const recorder: AdmissionPlugin = {
  name: 'ConnectRecorder',
  admit(a) {
    if (a.operation === 'CONNECT') seen.push({ half: 'admit', attrs: a });
  },
  validate(a) {
    if (a.operation !== 'CONNECT') return;
    seen.push({ half: 'validate', attrs: a });
    if (a.name === 'refused') throw new ApiError(403, 'Forbidden', `connect to ${a.resource}/${a.subresource} refused`);
  },
};

beforeAll(async () => {
  s = await server({ admissionPlugins: [recorder] });
});
afterAll(async () => {
  await s?.stop();
});

const API = '/api/v1/namespaces/default';

describe('CONNECT admission', () => {
  it.each([
    [
      'POST',
      `${API}/pods/missing/exec?command=ls&command=-l&container=c&stdout=1&tty=false`,
      'pods',
      'exec',
      { kind: 'PodExecOptions', apiVersion: 'v1', command: ['ls', '-l'], container: 'c', stdout: true, tty: false },
    ],
    ['POST', `${API}/pods/missing/attach?stdin=true&container=c`, 'pods', 'attach', { kind: 'PodAttachOptions', apiVersion: 'v1', stdin: true, container: 'c' }],
    ['POST', `${API}/pods/missing/portforward?ports=8080&ports=9090`, 'pods', 'portforward', { kind: 'PodPortForwardOptions', apiVersion: 'v1', ports: [8080, 9090] }],
    ['GET', `${API}/pods/missing/proxy/healthz`, 'pods', 'proxy', { kind: 'PodProxyOptions', apiVersion: 'v1', path: '/healthz' }],
    ['DELETE', `${API}/services/missing/proxy/a/b`, 'services', 'proxy', { kind: 'ServiceProxyOptions', apiVersion: 'v1', path: '/a/b' }],
    ['PUT', '/api/v1/nodes/missing/proxy/configz', 'nodes', 'proxy', { kind: 'NodeProxyOptions', apiVersion: 'v1', path: '/configz' }],
  ])('%s %s: both halves see CONNECT with the options, then the lookup answers 404', async (method, path, resource, subresource, options) => {
    seen.length = 0;
    const r = await call(s, method, path);
    expect(r.code).toBe(404);
    expect(seen.map((x) => x.half)).toEqual(['admit', 'validate']);
    const kind = { pods: 'Pod', services: 'Service', nodes: 'Node' }[resource];
    expect(seen[0].attrs).toMatchObject({ operation: 'CONNECT', group: '', version: 'v1', kind, resource, subresource, name: 'missing', object: options, oldObject: null });
    expect(seen[0].attrs.object).toEqual(options);
  });

  it('a plugin refusing the connect is answered before the object is looked up', async () => {
    const r = await call(s, 'POST', `${API}/pods/refused/exec?command=sh`);
    expect(r.code).toBe(403);
    expect(r.body.message).toBe('connect to pods/exec refused');
    const p = await call(s, 'GET', `${API}/services/refused/proxy/`);
    expect(p.code).toBe(403);
  });

  it('pods/log is a read: no admission', async () => {
    seen.length = 0;
    const r = await call(s, 'GET', `${API}/pods/missing/log`);
    expect(r.code).toBe(404);
    expect(seen).toEqual([]);
  });
});
