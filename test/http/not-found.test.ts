// What a path nothing serves answers, by where kube-apiserver's handlers
// give up: under a group it serves (or under /api) the group's handler
// answers a NotFound Status; under a group it does not know the request
// falls through to the last handler, Go's plain-text `404 page not found`
// (apiextensions-apiserver's group and version discovery handlers delegate
// unknown groups to it).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { server } from '../semantics/helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

const STATUS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };

describe('404 answers', () => {
  it.each([
    ['GET', '/apis/nope.example.com'],
    ['GET', '/apis/nope.example.com/'],
    ['GET', '/apis/nope.example.com/v1'],
    ['GET', '/apis/nope.example.com/v1/widgets'],
    ['GET', '/apis/nope.example.com/v1/namespaces/default/widgets/w'],
    ['POST', '/apis/nope.example.com/v1/namespaces/default/widgets'],
  ])('%s %s (a group no handler knows): plain text', async (method, path) => {
    const res = await s.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('404 page not found\n');
  });

  it.each([['/apis/apps/v9'], ['/apis/apps/v9/deployments'], ['/apis/apps/v1/widgets'], ['/api/v9'], ['/api/v1/widgets']])(
    'GET %s (under a served group or /api): the NotFound Status',
    async (path) => {
      const res = await s.app.request(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual(STATUS);
    },
  );
});
