// Unit tests of the fuzz harness's oracle (test/fuzz/oracle.ts) and path
// helpers: one row per rule, with responses made up for the purpose, so
// that the fuzz run's verdicts can be trusted.

import { describe, expect, it } from 'vitest';
import type { FuzzCase } from './case.ts';
import type { FuzzResponse, SendResult } from './client.ts';
import { hasDotSegments, normalizedPath } from './gen-paths.ts';
import { checkWarnings, isClusterWideNamespacedCollection, judge, normalizeMessage } from './oracle.ts';

const status = (code: number, reason: string, message = 'm') => JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

function res(code: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }, extra: Partial<FuzzResponse> = {}): SendResult {
  return { kind: 'response', ms: 1, res: { status: code, headers, body: Buffer.from(body), streamed: false, warnings: [], ...extra } };
}

const req = (method: string, path: string, extra: Partial<FuzzCase> = {}): FuzzCase => ({ index: 0, generator: 't', note: '', method, path, headers: { accept: 'application/json' }, ...extra });

describe('judge', () => {
  const rows: [string, FuzzCase, SendResult, string | undefined][] = [
    ['a 400 Status is fine', req('POST', '/api/v1/namespaces/fuzz/configmaps'), res(400, status(400, 'BadRequest')), undefined],
    ['a 500 Status fails', req('POST', '/api/v1/namespaces/fuzz/configmaps'), res(500, status(500, 'InternalError')), 'server-error-500'],
    ['a 503 fails outside connect subresources', req('GET', '/api/v1/namespaces/fuzz/configmaps'), res(503, status(503, 'ServiceUnavailable')), 'server-error-503'],
    ['a 503 on a proxy subresource is fine', req('GET', '/api/v1/namespaces/fuzz/pods/p/proxy', { connect: true }), res(503, status(503, 'ServiceUnavailable')), undefined],
    ['a 500 on exec (no kubelet to reach) is fine', req('POST', '/api/v1/namespaces/fuzz/pods/p/exec', { connect: true }), res(500, status(500, '')), undefined],
    ['a 504 Timeout is fine', req('GET', '/api/v1/configmaps?timeout=1ns'), res(504, status(504, 'Timeout')), undefined],
    ['a 504 of another reason fails', req('GET', '/api/v1/configmaps'), res(504, status(504, 'InternalError')), 'server-error-504'],
    ['a 429 without Retry-After fails', req('GET', '/api/v1/configmaps'), res(429, status(429, 'TooManyRequests')), '429-without-retry-after'],
    ['a 429 with Retry-After is fine', req('GET', '/api/v1/configmaps'), res(429, status(429, 'TooManyRequests'), { 'content-type': 'application/json', 'retry-after': '1' }), undefined],
    ['a plain-text 500 fails', req('POST', '/api/v1/namespaces/fuzz/configmaps'), res(500, 'Internal Server Error', { 'content-type': 'text/plain' }), 'error-without-status'],
    ['an empty 400 fails', req('GET', '/api/v1/x'), res(400, '', {}), 'error-without-status'],
    ['an empty 400 is fine where the HTTP layer refuses the request', req('GET', '/api/v1/x', { protocolReject: true }), res(400, '', {}), undefined],
    ['the plain 404 outside the API is fine', req('GET', '/nowhere'), res(404, '404 page not found\n', { 'content-type': 'text/plain; charset=utf-8' }), undefined],
    ['431 is fine', req('GET', '/api'), res(431, '', {}), undefined],
    ['a Status whose code differs fails', req('GET', '/api/v1/x'), res(404, status(400, 'BadRequest')), 'status-mismatch'],
    ['an error that is not a Status fails', req('GET', '/api/v1/x'), res(400, '{"kind":"ConfigMap"}'), 'error-without-status'],
    [
      'a YAML Status is fine when YAML was asked for',
      req('GET', '/api/v1/x', { headers: { accept: 'application/yaml' } }),
      res(404, 'kind: Status\napiVersion: v1\nstatus: Failure\ncode: 404\nreason: NotFound\nmessage: x\n', { 'content-type': 'application/yaml' }),
      undefined,
    ],
    ['a YAML Status fails when only JSON was asked for', req('GET', '/api/v1/x'), res(404, 'kind: Status\ncode: 404\n', { 'content-type': 'application/yaml' }), 'error-without-status'],
    ['a 2xx JSON that does not parse fails', req('GET', '/api/v1/configmaps'), res(200, '{"items":['), 'bad-success-body'],
    ['a delete through a dot segment that succeeds fails', req('DELETE', '/api/v1/namespaces/a/configmaps/x/..'), res(200, '{}'), 'write-through-dot-segment'],
    ['an encoded dot segment counts too', req('DELETE', '/api/v1/namespaces/a/configmaps/x/%2E%2e'), res(200, '{}'), 'write-through-dot-segment'],
    ['a GET through a dot segment may succeed', req('GET', '/api/v1/namespaces/a/configmaps/x/..'), res(200, '{}'), undefined],
    ['a delete of the cluster-wide collection of a namespaced resource fails', req('DELETE', '/api/v1/configmaps?labelSelector=a'), res(200, '{}'), 'write-on-cluster-wide-collection'],
    ['a delete of a cluster-scoped collection may succeed', req('DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterroles'), res(200, '{}'), undefined],
    [
      'a write that streams fails',
      req('POST', '/api/v1/watch/configmaps'),
      res(200, '{"type":"ADDED"', { 'content-type': 'application/json' }, { streamed: true, unexpectedStream: true }),
      'stream-for-a-write',
    ],
    ['no response fails', req('GET', '/api'), { kind: 'no-response', error: 'ECONNRESET', ms: 1 }, 'no-response'],
    ['a request the client refused is not judged', req('GET', '/api'), { kind: 'client-refused', error: 'x', ms: 1 }, undefined],
    ['a truncated body fails', req('GET', '/api'), res(200, '{"a"', { 'content-type': 'application/json' }, { incomplete: 'aborted' }), 'incomplete-response'],
  ];
  it.each(rows)('%s', (_name, c, r, rule) => {
    expect(judge(c, r).rule).toBe(rule);
  });
});

describe('warnings', () => {
  it('accepts short warnings and long ones cut to 256 characters, not uncut long ones past 4096 in total', () => {
    const w = (t: string) => `299 - "${t}"`;
    expect(checkWarnings([w('unknown field "x"')])).toBeUndefined();
    expect(checkWarnings([w('a'.repeat(4000))])).toBeUndefined();
    expect(checkWarnings(new Array(40).fill(0).map((_, i) => w(`${i}${'b'.repeat(255)}`)))).toBeUndefined();
    expect(checkWarnings([w('a'.repeat(5000))])).toMatch(/one of 5000/);
    expect(checkWarnings([`${w('x')}, ${w('y'.repeat(70_000))}`])).toMatch(/2 warnings/);
  });
});

describe('paths', () => {
  it.each([
    ['/api/v1/namespaces/a/configmaps/..', true],
    ['/api/v1/namespaces/a/configmaps/%2e%2E', true],
    ['/api/v1/namespaces/a/configmaps/.', true],
    ['/api/v1/namespaces/a/configmaps/a..b', false],
    ['/api/v1/namespaces/a/configmaps/..%2fx', true],
    ['/api/v1/namespaces/a/configmaps?x=..', false],
  ])('hasDotSegments(%s) = %s', (p, want) => {
    expect(hasDotSegments(p)).toBe(want);
  });
  it('normalizes what a URL parser would make of a path', () => {
    expect(normalizedPath('/api/v1/namespaces/fuzz/configmaps/x/../..')).toBe('/api/v1/namespaces/fuzz');
    expect(normalizedPath('/api/v1/namespaces/f%75zz/configmaps/%2e%2e/')).toBe('/api/v1/namespaces/fuzz');
  });
  it('knows the cluster-wide collections of namespaced resources', () => {
    expect(isClusterWideNamespacedCollection('/api/v1/configmaps')).toBe(true);
    expect(isClusterWideNamespacedCollection('/apis/apps/v1/deployments/?x=1')).toBe(true);
    expect(isClusterWideNamespacedCollection('/api/v1/namespaces')).toBe(false);
    expect(isClusterWideNamespacedCollection('/api/v1/namespaces/a/configmaps')).toBe(false);
  });
  it('groups messages by their fixed parts', () => {
    expect(normalizeMessage('configmaps "fz-12" not found')).toBe(normalizeMessage('configmaps "fz-99" not found'));
  });
});
