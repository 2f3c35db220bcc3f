import { describe, expect, it } from 'vitest';
import { deletionConditions, mergeConditions, type RemainingContent } from './namespace.ts';

const left = (total: number, res: [string, number][], fin: [string, number][], failures = 0): RemainingContent => ({
  total,
  byResource: new Map(res),
  byFinalizer: new Map(fin),
  failures,
});

describe('deletionConditions', () => {
  it.each([
    [left(0, [], []), { NamespaceContentRemaining: 'False', NamespaceFinalizersRemaining: 'False', NamespaceDeletionContentFailure: 'False' }],
    [
      left(
        3,
        [
          ['configmaps.', 2],
          ['deployments.apps', 1],
        ],
        [['a/b', 3]],
      ),
      { NamespaceContentRemaining: 'True', NamespaceFinalizersRemaining: 'True' },
    ],
    [left(1, [['pods.', 1]], [], 1), { NamespaceDeletionContentFailure: 'True' }],
  ])('%#', (l, want) => {
    const got = Object.fromEntries(deletionConditions(l).map((c) => [c.type, c.status]));
    expect(got).toMatchObject(want);
  });
  it('lists what remains, sorted', () => {
    const c = deletionConditions(
      left(
        3,
        [
          ['deployments.apps', 1],
          ['configmaps.', 2],
        ],
        [],
      ),
    );
    expect(c.find((x) => x.type === 'NamespaceContentRemaining')!.message).toBe('Some resources are remaining: configmaps. has 2 resource instances, deployments.apps has 1 resource instances');
  });
});

describe('mergeConditions', () => {
  it('keeps lastTransitionTime when the status is unchanged, sets it when it changes', () => {
    const old = [
      { type: 'A', status: 'True', lastTransitionTime: '2000-01-01T00:00:00Z' },
      { type: 'B', status: 'True', lastTransitionTime: '2000-01-01T00:00:00Z' },
    ];
    const next = mergeConditions(old, [
      { type: 'A', status: 'True' },
      { type: 'B', status: 'False' },
      { type: 'C', status: 'False' },
    ]);
    expect(next[0].lastTransitionTime).toBe('2000-01-01T00:00:00Z');
    expect(next[1].lastTransitionTime).not.toBe('2000-01-01T00:00:00Z');
    expect(next[2].lastTransitionTime).toBeTruthy();
  });
});
