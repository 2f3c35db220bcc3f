// TaintNodesByCondition: a created Node gets the not-ready NoSchedule taint once.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { taintNodesByConditionPlugin } from './taint-nodes-by-condition.ts';
import { attrsFor } from './testing.ts';

const NOT_READY = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const node = (taints?: Obj[]): Obj => ({ metadata: { name: 'n1' }, spec: taints ? { taints } : {} });

describe('TaintNodesByCondition', () => {
  it.each([
    ['no taints', undefined, [NOT_READY]],
    ['other taints kept', [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }], [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }, NOT_READY]],
    ['already tainted: unchanged', [{ key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' }], [{ key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' }]],
    ['the key with another effect: added', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }], [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }, NOT_READY]],
  ])('%s', async (_name, taints, want) => {
    const n = node(taints);
    await taintNodesByConditionPlugin().admit!(attrsFor('', 'nodes', n, { namespace: '' }));
    expect(n.spec.taints).toEqual(want);
  });

  it.each([
    ['an update', { operation: 'UPDATE' as const }],
    ['a status write', { subresource: 'status' }],
  ])('leaves %s alone', async (_name, over) => {
    const n = node();
    await taintNodesByConditionPlugin().admit!(attrsFor('', 'nodes', n, { namespace: '', ...over }));
    expect(n.spec.taints).toBeUndefined();
  });
});
