import { describe, expect, it } from 'vitest';
import type { MergeSchema } from '../../generated/api-types.ts';
import { mergeSchema } from '../../generated/merge-schema.ts';
import { Defaulter } from './defaults.ts';

const schema: MergeSchema = {
  types: {
    Root: {
      map: {
        fields: [
          { name: 'mode', type: { inline: { scalar: 'string' } }, default: 'fast' },
          { name: 'ports', type: { inline: { list: { elementType: { named: 'Port' }, elementRelationship: 'associative', keys: ['port', 'protocol'] } } } },
          { name: 'byName', type: { inline: { map: { elementType: { named: 'Port' } } } } },
          { name: 'self', type: { named: 'Root' } },
          { name: 'plain', type: { inline: { scalar: 'string' } } },
        ],
      },
    },
    Port: {
      map: {
        fields: [
          { name: 'port', type: { inline: { scalar: 'numeric' } } },
          { name: 'protocol', type: { inline: { scalar: 'string' } }, default: 'TCP' },
        ],
      },
    },
  },
};

describe('Defaulter', () => {
  const d = new Defaulter(schema);
  it.each([
    ['top-level default', {}, { mode: 'fast' }],
    ['present values stay', { mode: 'slow' }, { mode: 'slow' }],
    [
      'list elements',
      { ports: [{ port: 1 }, { port: 2, protocol: 'UDP' }] },
      {
        mode: 'fast',
        ports: [
          { port: 1, protocol: 'TCP' },
          { port: 2, protocol: 'UDP' },
        ],
      },
    ],
    ['map values', { byName: { a: { port: 1 } } }, { mode: 'fast', byName: { a: { port: 1, protocol: 'TCP' } } }],
    ['recursive types', { self: { self: {} } }, { mode: 'fast', self: { mode: 'fast', self: { mode: 'fast' } } }],
  ])('%s', (_n, input, want) => {
    const v = structuredClone(input);
    d.apply('Root', v);
    expect(v).toEqual(want);
  });
  it('does not share default values between objects', () => {
    const s2: MergeSchema = { types: { T: { map: { fields: [{ name: 'l', type: { inline: { scalar: 'untyped' } }, default: { a: 1 } }] } } } };
    const d2 = new Defaulter(s2);
    const x: any = {};
    const y: any = {};
    d2.apply('T', x);
    d2.apply('T', y);
    x.l.a = 2;
    expect(y.l.a).toBe(1);
  });
  it('defaults container and service port protocols from the generated schema', () => {
    const real = new Defaulter(mergeSchema);
    const dep: any = { spec: { template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } } } };
    real.apply('io.k8s.api.apps.v1.Deployment', dep);
    expect(dep.spec.template.spec.containers[0].ports[0].protocol).toBe('TCP');
    const svc: any = { spec: { ports: [{ port: 80 }] } };
    real.apply('io.k8s.api.core.v1.Service', svc);
    expect(svc.spec.ports[0].protocol).toBe('TCP');
  });
});
