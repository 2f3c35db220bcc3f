import { describe, expect, it } from 'vitest';
import { parseYAMLStrict, YAMLSyntaxError } from './yaml-parse.ts';

describe('parseYAMLStrict', () => {
  it('decodes a manifest', () => {
    const r = parseYAMLStrict('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: "1"\n');
    expect(r.value).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: '1' } });
    expect(r.duplicates).toEqual([]);
  });
  it('accepts JSON as YAML', () => {
    expect(parseYAMLStrict('{"a": [1, 2]}').value).toEqual({ a: [1, 2] });
  });
  it('reports duplicate keys', () => {
    const r = parseYAMLStrict('metadata:\n  name: a\n  name: b\nspec:\n  c:\n  - x: 1\n    x: 2\n');
    expect(r.duplicates).toEqual(['metadata.name', 'spec.c[0].x']);
  });
  it('rejects malformed YAML', () => {
    expect(() => parseYAMLStrict('a: [1, 2\nb: }')).toThrow(YAMLSyntaxError);
  });
});
