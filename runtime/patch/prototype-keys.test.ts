// `__proto__` is a legal JSON key (a ConfigMap may hold it): every patch type
// must treat it as a plain field and never touch a prototype.
import { describe, expect, it } from 'vitest';
import type { JSONValue } from '../../generated/api-types.ts';
import { applyPatch, PatchError } from './index.ts';
import type { Obj } from './index.ts';
import { cloneJSON } from './clone.ts';
import { testSchema } from './test-fixtures.ts';

const ctx = { schema: testSchema, typeName: 'io.k8s.api.core.v1.ConfigMap' };
const parse = (s: string) => JSON.parse(s) as JSONValue;

function ownProto(o: Obj): JSONValue | undefined {
  return Object.getOwnPropertyDescriptor(o, '__proto__')?.value as JSONValue | undefined;
}

describe('__proto__ keys', () => {
  it.each(['merge', 'strategic'] as const)('%s patch sets a field named __proto__ and pollutes nothing', (kind) => {
    const live = parse('{"data":{"a":"1"}}') as Obj;
    const out = applyPatch(kind, live, parse('{"data":{"__proto__":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}'), ctx);
    expect(ownProto(out.data as Obj)).toEqual({ polluted: 'yes' });
    expect(ownProto(out)).toEqual({ polluted: 'yes' });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(['merge', 'strategic'] as const)('%s patch merges into a live __proto__ field', (kind) => {
    const live = parse('{"data":{"__proto__":{"x":"1"}}}') as Obj;
    const out = applyPatch(kind, live, parse('{"data":{"__proto__":{"y":"2"}}}'), ctx);
    expect(ownProto(out.data as Obj)).toEqual({ x: '1', y: '2' });
    expect(({} as Record<string, unknown>).y).toBeUndefined();
  });

  it('cloneJSON keeps a __proto__ field as a field', () => {
    const v = parse('{"__proto__":{"a":1}}') as Obj;
    expect(ownProto(cloneJSON(v))).toEqual({ a: 1 });
  });

  it('JSON patch refuses to write through __proto__', () => {
    expect(() => applyPatch('json', { data: {} }, [{ op: 'add', path: '/__proto__/polluted', value: 'yes' }], ctx)).toThrow(PatchError);
    expect(() => applyPatch('json', { data: {} }, [{ op: 'test', path: '/__proto__/x', value: null }], ctx)).toThrow(PatchError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
