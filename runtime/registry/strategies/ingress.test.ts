import { describe, expect, it } from 'vitest';
import { ingressPathErrors } from './ingress.ts';

describe('ingressPathErrors', () => {
  it.each([
    ['Prefix absolute', { path: '/a', pathType: 'Prefix' }, []],
    ['Exact absolute', { path: '/a/b', pathType: 'Exact' }, []],
    ['ImplementationSpecific empty', { pathType: 'ImplementationSpecific' }, []],
    ['pathType missing', { path: '/' }, ['p.pathType: Required value: pathType must be specified']],
    ['pathType unknown', { path: '/', pathType: 'Regex' }, ['p.pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"']],
    ['Prefix relative', { path: 'a', pathType: 'Prefix' }, ['p.path: Invalid value: "a": must be an absolute path']],
    ['Exact with //', { path: '/a//b', pathType: 'Exact' }, ['p.path: Invalid value: "/a//b": must not contain \'//\'']],
    ['Prefix ending /..', { path: '/a/..', pathType: 'Prefix' }, ['p.path: Invalid value: "/a/..": cannot end with \'/..\'']],
    ['ImplementationSpecific relative', { path: 'x', pathType: 'ImplementationSpecific' }, ['p.path: Invalid value: "x": must be an absolute path']],
  ])('%s', (_name, p, want) => {
    expect(ingressPathErrors('p', p).map((e) => e.toString())).toEqual(want);
  });
});
