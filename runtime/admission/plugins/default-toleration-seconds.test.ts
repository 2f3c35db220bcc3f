// DefaultTolerationSeconds: which Pods get the not-ready and unreachable
// NoExecute tolerations, with the configured seconds, and which are left alone.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { defaultTolerationSecondsPlugin } from './default-toleration-seconds.ts';
import { attrsFor } from './testing.ts';

const notReady = (s = 300): Obj => ({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });
const unreachable = (s = 300): Obj => ({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });
const own = { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' };

describe('DefaultTolerationSeconds', () => {
  it.each([
    ['no tolerations: both added, not-ready first', undefined, [notReady(), unreachable()]],
    ['other tolerations kept ahead of the two', [own], [own, notReady(), unreachable()]],
    ['a not-ready NoExecute toleration already there: only unreachable added', [notReady(60)], [notReady(60), unreachable()]],
    ['an unreachable one with no effect counts', [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }], [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }, notReady()]],
    ['an empty key tolerates both', [{ operator: 'Exists' }], [{ operator: 'Exists' }]],
    ['an empty key with another effect tolerates neither', [{ operator: 'Exists', effect: 'NoSchedule' }], [{ operator: 'Exists', effect: 'NoSchedule' }, notReady(), unreachable()]],
    [
      'a not-ready NoSchedule toleration does not count',
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }, notReady(), unreachable()],
    ],
  ])('%s', async (_name, tolerations, want) => {
    const pod: Obj = { metadata: { name: 'p' }, spec: { containers: [], ...(tolerations ? { tolerations } : {}) } };
    await defaultTolerationSecondsPlugin().admit!(attrsFor('', 'pods', pod));
    expect(pod.spec.tolerations).toEqual(want);
  });

  it('uses the configured seconds', async () => {
    const pod: Obj = { metadata: { name: 'p' }, spec: {} };
    await defaultTolerationSecondsPlugin({ notReadySeconds: 30, unreachableSeconds: 45 }).admit!(attrsFor('', 'pods', pod));
    expect(pod.spec.tolerations).toEqual([notReady(30), unreachable(45)]);
  });

  it('acts on updates too', async () => {
    const pod: Obj = { metadata: { name: 'p' }, spec: {} };
    await defaultTolerationSecondsPlugin().admit!(attrsFor('', 'pods', pod, { operation: 'UPDATE', oldObject: { metadata: { name: 'p' }, spec: {} } }));
    expect(pod.spec.tolerations).toHaveLength(2);
  });

  it.each([
    ['a subresource', attrsFor('', 'pods', { spec: {} }, { subresource: 'status' })],
    ['another resource', attrsFor('', 'podtemplates', { spec: {} })],
    ['another group', attrsFor('example.com', 'pods', { spec: {} })],
    ['a delete', attrsFor('', 'pods', { spec: {} }, { operation: 'DELETE' })],
  ])('leaves %s alone', async (_name, attrs) => {
    await defaultTolerationSecondsPlugin().admit!(attrs);
    expect(attrs.object?.spec.tolerations).toBeUndefined();
  });
});
