// Table test of the long-running rule, from request targets as the request-info
// parser reads them.

import { describe, expect, it } from 'vitest';
import { isLongRunning } from './long-running.ts';
import { parseRequestInfo } from './request-info.ts';

const cases: [method: string, path: string, query: string, longRunning: boolean][] = [
  ['GET', '/api/v1/namespaces/default/pods', 'watch=true', true],
  ['GET', '/api/v1/watch/namespaces/default/pods', '', true],
  ['GET', '/api/v1/namespaces/default/pods', '', false],
  ['GET', '/api/v1/namespaces/default/pods/p', '', false],
  ['GET', '/api/v1/namespaces/default/pods/p/log', '', true],
  ['POST', '/api/v1/namespaces/default/pods/p/exec', 'command=ls', true],
  ['GET', '/api/v1/namespaces/default/pods/p/exec', '', true],
  ['POST', '/api/v1/namespaces/default/pods/p/attach', '', true],
  ['POST', '/api/v1/namespaces/default/pods/p/portforward', '', true],
  ['GET', '/api/v1/namespaces/default/pods/p/proxy', '', true],
  ['DELETE', '/api/v1/namespaces/default/pods/p/proxy/some/path', '', true],
  ['OPTIONS', '/api/v1/namespaces/default/services/s/proxy/', '', true],
  ['GET', '/api/v1/nodes/n/proxy/metrics', '', true],
  ['PUT', '/api/v1/namespaces/default/pods/p/status', '', false],
  ['POST', '/api/v1/namespaces/default/pods/p/eviction', '', false],
  ['POST', '/api/v1/namespaces/default/pods/p/binding', '', false],
  ['GET', '/apis/apps/v1/namespaces/default/deployments/d/scale', '', false],
  // a resource named like a subresource is not one
  ['GET', '/api/v1/namespaces/default/pods/log', '', false],
  ['GET', '/debug/pprof/profile', '', true],
  ['GET', '/debug/pprof', '', false],
  ['GET', '/healthz', '', false],
  ['GET', '/openapi/v2', '', false],
  ['GET', '/logs/', '', false],
];

describe('isLongRunning', () => {
  it.each(cases)('%s %s?%s → %s', (method, path, query, want) => {
    expect(isLongRunning(parseRequestInfo(method, path, new URLSearchParams(query)))).toBe(want);
  });
});
