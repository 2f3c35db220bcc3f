// Which form of /openapi/v2 an Accept header gets, by kube-openapi's rules.
import { describe, expect, it } from 'vitest';
import { parseAcceptClauses, v2Form, v3JSONAcceptable } from './accept.ts';

describe('v2Form', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['*', 'json'],
    ['application/*', 'json'],
    ['application/json', 'json'],
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
    ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
    // kubectl's own header: protobuf first, JSON as a fallback
    ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json', 'protobuf'],
    ['application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
    // a specific type wins over a wildcard at the same q
    ['*/*, application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'protobuf'],
    ['application/yaml', undefined],
    ['application/vnd.kubernetes.protobuf', undefined],
    ['text/plain, application/yaml', undefined],
    // types are compared as written
    ['Application/JSON', undefined],
  ])('%s -> %s', (accept, want) => {
    expect(v2Form(accept)).toBe(want);
  });

  it('parses q values, treating one that does not parse as 0', () => {
    expect(parseAcceptClauses('a/b;q=0.2, c/d;q=x, e/f')).toEqual([
      { type: 'e', subType: 'f', q: 1 },
      { type: 'a', subType: 'b', q: 0.2 },
      { type: 'c', subType: 'd', q: 0 },
    ]);
  });
});

describe('v3JSONAcceptable', () => {
  it.each([
    [undefined, true],
    ['*/*', true],
    ['application/*', true],
    ['application/json', true],
    ['text/plain, application/json;q=0.1', true],
    ['application/yaml', false],
    ['application/com.github.proto-openapi.spec.v3.v1.0+protobuf', false],
  ])('%s -> %s', (accept, want) => {
    expect(v3JSONAcceptable(accept)).toBe(want);
  });
});
