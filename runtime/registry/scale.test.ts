// The Scale view of the scale store: paths from a CRD's scale declaration or
// the built-in spec.replicas/status.replicas, the selector from the declared
// path or spec.selector, and zero for absent counts.
import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../../generated/api-types.ts';
import { scalePathsOf, toScale } from './scale.ts';

const def = (scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string }) =>
  ({ subresources: [{ name: 'scale', ...(scale ? { scale } : {}) }] }) as unknown as ResourceDef;
const md = { name: 'w', namespace: 'ns', uid: 'u', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z' };

describe('scale store view', () => {
  it.each([
    [
      'built-in workload',
      def(),
      { metadata: md, spec: { replicas: 3, selector: { matchLabels: { app: 'a' } } }, status: { replicas: 2 } },
      { spec: { replicas: 3 }, status: { replicas: 2, selector: 'app=a' } },
    ],
    [
      'ReplicationController: the selector is a label map',
      { ...def(), group: '', kind: 'ReplicationController' } as ResourceDef,
      { metadata: md, spec: { replicas: 2, selector: { b: '2', a: '1' } }, status: { replicas: 1 } },
      { spec: { replicas: 2 }, status: { replicas: 1, selector: 'a=1,b=2' } },
    ],
    ['absent counts are zero, no selector', def(), { metadata: md, spec: {} }, { spec: { replicas: 0 }, status: { replicas: 0 } }],
    [
      'CRD scale paths',
      def({ specReplicasPath: '.spec.size', statusReplicasPath: '.status.ready', labelSelectorPath: '.status.sel' }),
      { metadata: md, spec: { size: 4 }, status: { ready: 1, sel: 'x=y' } },
      { spec: { replicas: 4 }, status: { replicas: 1, selector: 'x=y' } },
    ],
  ])('%s', (_n, d, obj, want) => {
    const scale = toScale(obj, scalePathsOf(d));
    expect(scale).toEqual({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: md, ...want });
  });
});
