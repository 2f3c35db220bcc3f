// The CustomResourceDefinition lifecycle around the validating strategy: the
// names' defaults, the first delete that adds the cleanup finalizer and the
// Terminating condition, and the condition helper the controller shares.
import { describe, expect, it } from 'vitest';
import { crdLifecycleStrategy, setCrdCondition, CRD_CLEANUP_FINALIZER } from './lifecycle.ts';
import type { Strategy } from '../../strategy.ts';
import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';

const base = {} as Strategy;
const strategy = crdLifecycleStrategy({} as ResourceDef, base);
const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);

describe('CustomResourceDefinition strategy', () => {
  it.each<[string, Obj, Obj]>([
    ['singular and listKind from the kind', { kind: 'Widget', plural: 'widgets' }, { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' }],
    ['given names kept', { kind: 'Widget', plural: 'widgets', singular: 'w', listKind: 'Widgets' }, { kind: 'Widget', plural: 'widgets', singular: 'w', listKind: 'Widgets' }],
  ])('defaults the names: %s', (_name, names, want) => {
    const crd: Obj = { spec: { names: { ...names } } };
    strategy.defaults!(crd);
    expect(crd.spec.names).toEqual(want);
  });

  it('holds the first delete, adding the cleanup finalizer and the Terminating condition', () => {
    const crd: Obj = { metadata: { name: 'a', finalizers: ['other.example.com/x'] } };
    expect(strategy.hasPendingFinalizers!(crd)).toBe(true);
    strategy.prepareForGracefulDelete!(crd, false);
    expect(crd.metadata.finalizers).toEqual(['other.example.com/x', CRD_CLEANUP_FINALIZER]);
    expect(crd.status.conditions).toMatchObject([
      { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' },
    ]);
    // being deleted: nothing more is pending, and a second delete changes nothing
    crd.metadata.deletionTimestamp = '2026-01-01T10:00:00Z';
    expect(strategy.hasPendingFinalizers!(crd)).toBe(false);
    const before = structuredClone(crd);
    strategy.prepareForGracefulDelete!(crd, true);
    expect(crd).toEqual(before);
  });

  it.each<[string, Obj[] | undefined, Obj, Obj[]]>([
    [
      'a new condition',
      undefined,
      { type: 'Established', status: 'True', reason: 'R', message: 'm' },
      [{ type: 'Established', status: 'True', reason: 'R', message: 'm', lastTransitionTime: '2026-01-01T10:00:00Z' }],
    ],
    [
      'same status: the transition time stays',
      [{ type: 'Established', status: 'True', reason: 'A', message: 'a', lastTransitionTime: '2025-01-01T00:00:00Z' }],
      { type: 'Established', status: 'True', reason: 'B', message: 'b' },
      [{ type: 'Established', status: 'True', reason: 'B', message: 'b', lastTransitionTime: '2025-01-01T00:00:00Z' }],
    ],
    [
      'a status change: a new transition time, order kept',
      [
        { type: 'NamesAccepted', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' },
        { type: 'Established', status: 'False', lastTransitionTime: '2025-01-01T00:00:00Z' },
      ],
      { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: 'x' },
      [
        { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: 'x', lastTransitionTime: '2026-01-01T10:00:00Z' },
        { type: 'Established', status: 'False', lastTransitionTime: '2025-01-01T00:00:00Z' },
      ],
    ],
  ])('setCrdCondition: %s', (_name, conditions, cond, want) => {
    const crd: Obj = { status: conditions ? { conditions: structuredClone(conditions) } : {} };
    setCrdCondition(crd, cond as never, T0);
    expect(crd.status.conditions).toEqual(want);
  });
});
