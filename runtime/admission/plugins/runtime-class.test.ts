// RuntimeClass: overhead and scheduling from the Pod's class, the refusals
// with upstream's texts, and upstream's toleration merge.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { mergeTolerations, runtimeClassPlugin } from './runtime-class.ts';
import { attrsFor, refusal, staticClusterObjects } from './testing.ts';

const classes = staticClusterObjects([
  { metadata: { name: 'plain' }, handler: 'runc' },
  { metadata: { name: 'kata' }, handler: 'kata', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } },
  {
    metadata: { name: 'sandboxed' },
    handler: 'gvisor',
    scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Equal', value: 'gvisor', effect: 'NoSchedule' }] },
  },
]);
const pod = (spec: Obj): Obj => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'x' }], ...spec } });
const plugin = runtimeClassPlugin(classes);
const admit = async (p: Obj) => {
  await plugin.admit!(attrsFor('', 'pods', p));
  return p.spec;
};
const validate = (p: Obj) => plugin.validate!(attrsFor('', 'pods', p));
const message = async (p: void | Promise<void>) => {
  const err = await refusal(p);
  expect(err.code).toBe(403);
  expect(err.reason).toBe('Forbidden');
  return err.message;
};

describe('RuntimeClass admit', () => {
  it('sets the class overhead', async () => {
    expect((await admit(pod({ runtimeClassName: 'kata' }))).overhead).toEqual({ cpu: '250m', memory: '120Mi' });
  });
  it('accepts an overhead equal to the class (other units)', async () => {
    expect((await admit(pod({ runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } }))).overhead).toEqual({ cpu: '250m', memory: '120Mi' });
  });
  it('treats an empty overhead as none', async () => {
    expect((await admit(pod({ runtimeClassName: 'kata', overhead: {} }))).overhead).toEqual({ cpu: '250m', memory: '120Mi' });
  });
  it('leaves a Pod without a class, or with a class without overhead or scheduling, alone', async () => {
    expect(await admit(pod({}))).toEqual(pod({}).spec);
    expect(await admit(pod({ runtimeClassName: 'plain' }))).toEqual(pod({ runtimeClassName: 'plain' }).spec);
  });
  it('merges the nodeSelector and tolerations', async () => {
    const spec = await admit(pod({ runtimeClassName: 'sandboxed', nodeSelector: { zone: 'a' }, tolerations: [{ key: 'other', operator: 'Exists' }] }));
    expect(spec.nodeSelector).toEqual({ zone: 'a', sandbox: 'gvisor' });
    expect(spec.tolerations).toEqual([
      { key: 'other', operator: 'Exists' },
      { key: 'sandbox', operator: 'Equal', value: 'gvisor', effect: 'NoSchedule' },
    ]);
  });
  it("takes the class's nodeSelector when the Pod has none", async () => {
    expect((await admit(pod({ runtimeClassName: 'sandboxed' }))).nodeSelector).toEqual({ sandbox: 'gvisor' });
  });
  it.each([
    ['a missing class', pod({ runtimeClassName: 'nope' }), 'pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found'],
    ['another overhead', pod({ runtimeClassName: 'kata', overhead: { cpu: '1' } }), "pods \"p\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"],
    [
      'a conflicting nodeSelector',
      pod({ runtimeClassName: 'sandboxed', nodeSelector: { sandbox: 'kata' } }),
      'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = gvisor; pod.spec.nodeSelector[sandbox] = kata',
    ],
  ])('refuses %s', async (_name, p, want) => {
    expect(await message(plugin.admit!(attrsFor('', 'pods', p)))).toBe(want);
  });
  it('leaves updates alone', async () => {
    const p = pod({ runtimeClassName: 'nope' });
    await plugin.admit!(attrsFor('', 'pods', p, { operation: 'UPDATE', oldObject: p }));
  });
});

describe('RuntimeClass validate', () => {
  it.each([
    ['no class, no overhead', pod({})],
    ['the class overhead', pod({ runtimeClassName: 'kata', overhead: { cpu: '250m', memory: '120Mi' } })],
    ['a class without overhead and no overhead', pod({ runtimeClassName: 'plain' })],
    ['an empty overhead without a class', pod({ overhead: {} })],
  ])('accepts %s', async (_name, p) => {
    await expect(validate(p)).resolves.toBeUndefined();
  });
  it.each([
    ['an overhead without a class', pod({ overhead: { cpu: '1' } }), 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
    [
      'an overhead with a class without one',
      pod({ runtimeClassName: 'plain', overhead: { cpu: '1' } }),
      'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    ],
    ['no overhead with a class that has one', pod({ runtimeClassName: 'kata' }), "pods \"p\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"],
    ['a class gone since', pod({ runtimeClassName: 'nope' }), 'pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found'],
  ])('refuses %s', async (_name, p, want) => {
    expect(await message(validate(p))).toBe(want);
  });
});

describe('mergeTolerations', () => {
  const t = (key: string, extra: Obj = {}): Obj => ({ key, operator: 'Exists', ...extra });
  it.each([
    ['disjoint: both, in order', [t('a')], [t('b')], [t('a'), t('b')]],
    ['equal: the first kept', [t('a', { effect: 'NoSchedule' })], [t('a', { effect: 'NoSchedule' })], [t('a', { effect: 'NoSchedule' })]],
    ['an Exists covers an Equal of the same key', [{ key: 'a', operator: 'Equal', value: 'v' }], [t('a')], [t('a')]],
    ['an empty key with Exists covers all', [t('a'), t('b', { effect: 'NoExecute' })], [{ operator: 'Exists' }], [{ operator: 'Exists' }]],
    ['an empty effect covers each effect', [t('a', { effect: 'NoSchedule' })], [t('a')], [t('a')]],
    [
      'a longer NoExecute time is not covered by a shorter one',
      [t('a', { effect: 'NoExecute', tolerationSeconds: 600 })],
      [t('a', { effect: 'NoExecute', tolerationSeconds: 60 })],
      [t('a', { effect: 'NoExecute', tolerationSeconds: 600 })],
    ],
    [
      'Equal with another value is not covered',
      [{ key: 'a', operator: 'Equal', value: 'x' }],
      [{ key: 'a', value: 'y' }],
      [
        { key: 'a', operator: 'Equal', value: 'x' },
        { key: 'a', value: 'y' },
      ],
    ],
  ])('%s', (_name, first, second, want) => {
    expect(mergeTolerations(first, second)).toEqual(want);
  });
});
