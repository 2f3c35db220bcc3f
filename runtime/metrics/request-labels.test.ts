// Tests of the request metric labels (verb as reported, scope, dry run).
import { describe, expect, it } from 'vitest';
import { dryRunLabel, reportedVerb, requestScope, type RequestFacts } from './request-labels.ts';

const info = (over: Partial<RequestFacts>): RequestFacts => ({
  isResourceRequest: true,
  path: '/api/v1/pods',
  method: 'GET',
  verb: 'list',
  apiGroup: '',
  apiVersion: 'v1',
  namespace: '',
  resource: 'pods',
  subresource: '',
  name: '',
  ...over,
});

describe('reportedVerb', () => {
  const cases: [string, Partial<RequestFacts>, string | undefined, string][] = [
    ['a collection read', { verb: 'list' }, undefined, 'LIST'],
    ['a watch', { verb: 'watch' }, undefined, 'WATCH'],
    ['an object read', { verb: 'get', name: 'p' }, undefined, 'GET'],
    ['a create', { verb: 'create', method: 'POST' }, 'application/json', 'POST'],
    ['an update', { verb: 'update', method: 'PUT' }, 'application/json', 'PUT'],
    ['a merge patch', { verb: 'patch', method: 'PATCH' }, 'application/merge-patch+json', 'PATCH'],
    ['an apply patch', { verb: 'patch', method: 'PATCH' }, 'application/apply-patch+yaml; charset=utf-8', 'APPLY'],
    ['a delete', { verb: 'delete', method: 'DELETE' }, undefined, 'DELETE'],
    ['a delete of a collection', { verb: 'deletecollection', method: 'DELETE' }, undefined, 'DELETECOLLECTION'],
    ['exec', { verb: 'create', method: 'POST', subresource: 'exec', name: 'p' }, undefined, 'CONNECT'],
    ['a proxy GET', { verb: 'get', method: 'GET', subresource: 'proxy', name: 'p' }, undefined, 'CONNECT'],
    ['a log read', { verb: 'get', method: 'GET', subresource: 'log', name: 'p' }, undefined, 'GET'],
    ['a non-resource HEAD', { isResourceRequest: false, method: 'HEAD', verb: 'head' }, undefined, 'GET'],
    ['a non-resource GET', { isResourceRequest: false, method: 'GET', verb: 'get' }, undefined, 'GET'],
  ];
  it.each(cases)('%s', (_name, over, contentType, want) => {
    expect(reportedVerb(info(over), contentType)).toBe(want);
  });
});

describe('requestScope', () => {
  it.each([
    [{ name: 'p', namespace: 'ns' }, 'resource'],
    [{ namespace: 'ns' }, 'namespace'],
    [{}, 'cluster'],
    [{ isResourceRequest: false }, ''],
  ] as [Partial<RequestFacts>, string][])('%o is %s', (over, want) => {
    expect(requestScope(info(over))).toBe(want);
  });
});

describe('dryRunLabel', () => {
  it.each([
    ['', ''],
    ['dryRun=All', 'All'],
    ['dryRun=All&dryRun=All', 'All'],
    ['dryRun=Some', 'invalid'],
  ])('%s', (query, want) => {
    expect(dryRunLabel(new URLSearchParams(query))).toBe(want);
  });
});
