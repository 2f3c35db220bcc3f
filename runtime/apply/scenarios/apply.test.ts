// Scenarios: apply and update by several managers: ownership, shared
// ownership, conflicts with and without force, pruning of dropped fields,
// reset to defaults.
import { describe, it } from 'vitest';
import { runScenario } from './run.ts';

const base = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a' } };

describe('apply scenarios', () => {
  it('apply on a missing object creates it and owns what it set', () => {
    runScenario([
      {
        manager: 'a',
        object: { ...base, spec: { replicas: 3, paused: true } },
        expectObject: { ...base, spec: { replicas: 3, paused: true } },
        expectManaged: { 'a/Apply': { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } } },
      },
    ]);
  });

  it('equal values from two appliers are shared; a different value conflicts; force takes it', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { replicas: 3, paused: true } } },
      {
        manager: 'b',
        object: { ...base, spec: { replicas: 3 } },
        expectManaged: {
          'a/Apply': { 'f:spec': { 'f:paused': {}, 'f:replicas': {} } },
          'b/Apply': { 'f:spec': { 'f:replicas': {} } },
        },
      },
      {
        manager: 'c',
        object: { ...base, spec: { replicas: 4, paused: false } },
        expectConflicts: [
          { manager: 'a', field: '.spec.paused' },
          { manager: 'a', field: '.spec.replicas' },
          { manager: 'b', field: '.spec.replicas' },
        ],
        expectMessage: 'Apply failed with 3 conflicts: conflicts with "a":\n- .spec.paused\n- .spec.replicas\nconflicts with "b":\n- .spec.replicas',
      },
      {
        manager: 'c',
        object: { ...base, spec: { replicas: 4 } },
        force: true,
        expectObject: { ...base, spec: { replicas: 4, paused: true } },
        expectManaged: {
          'a/Apply': { 'f:spec': { 'f:paused': {} } },
          'c/Apply': { 'f:spec': { 'f:replicas': {} } },
        },
      },
    ]);
  });

  it('a single conflict prints the one-conflict form', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { replicas: 3 } } },
      {
        manager: 'b',
        object: { ...base, spec: { replicas: 5 } },
        expectConflicts: [{ manager: 'a', field: '.spec.replicas' }],
        expectMessage: 'Apply failed with 1 conflict: conflict with "a": .spec.replicas',
      },
    ]);
  });

  it('conflicts with an updater name its apiVersion', () => {
    runScenario([
      { op: 'update', manager: 'kubectl-edit', object: { ...base, spec: { replicas: 3 } } },
      {
        manager: 'b',
        object: { ...base, spec: { replicas: 5 } },
        expectConflicts: [{ manager: 'kubectl-edit', field: '.spec.replicas' }],
        expectMessage: 'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .spec.replicas',
      },
    ]);
  });

  it('an update never conflicts and takes the fields it changes', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { replicas: 3, paused: true } } },
      {
        op: 'update',
        manager: 'hpa',
        object: (live) => ({ ...live, spec: { replicas: 7, paused: true } }),
        expectObject: { ...base, spec: { replicas: 7, paused: true } },
        expectManaged: {
          'a/Apply': { 'f:spec': { 'f:paused': {} } },
          'hpa/Update': { 'f:spec': { 'f:replicas': {} } },
        },
      },
      // The applier re-applying its old value now conflicts with the updater.
      {
        manager: 'a',
        object: { ...base, spec: { replicas: 3, paused: true } },
        expectConflicts: [{ manager: 'hpa', field: '.spec.replicas' }],
      },
      // Dropping the field from the configuration avoids the conflict and keeps the updater's value.
      {
        manager: 'a',
        object: { ...base, spec: { paused: true } },
        expectObject: { ...base, spec: { replicas: 7, paused: true } },
      },
    ]);
  });

  it('an update that changes nothing records nothing', () => {
    const live = runScenario([{ manager: 'a', object: { ...base, spec: { replicas: 3 } } }])!;
    runScenario(
      [
        {
          op: 'update',
          manager: 'noop',
          object: (l) => l,
          expectManaged: { 'a/Apply': { 'f:spec': { 'f:replicas': {} } } },
        },
      ],
      live,
    );
  });

  it('a field dropped from a re-apply is removed when nobody else owns it', () => {
    runScenario([
      { manager: 'a', object: { ...base, metadata: { name: 'a', labels: { x: '1', y: '2' } }, spec: { paused: true, tags: ['p', 'q'] } } },
      {
        manager: 'a',
        object: { ...base, metadata: { name: 'a', labels: { x: '1' } }, spec: { tags: ['q'] } },
        expectObject: { ...base, metadata: { name: 'a', labels: { x: '1' } }, spec: { tags: ['q'] } },
        expectManaged: { 'a/Apply': { 'f:metadata': { 'f:labels': { 'f:x': {} } }, 'f:spec': { 'f:tags': { 'v:"q"': {} } } } },
      },
      {
        manager: 'a',
        object: { ...base },
        expectObject: { ...base },
        expectManaged: {},
      },
    ]);
  });

  it('a dropped field stays when another applier shares it', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { paused: true, replicas: 2 } } },
      { manager: 'b', object: { ...base, spec: { paused: true } } },
      {
        manager: 'a',
        object: { ...base, spec: { replicas: 2 } },
        expectObject: { ...base, spec: { paused: true, replicas: 2 } },
        expectManaged: {
          'a/Apply': { 'f:spec': { 'f:replicas': {} } },
          'b/Apply': { 'f:spec': { 'f:paused': {} } },
        },
      },
    ]);
  });

  it('a dropped field the applier no longer owns (taken by an update) stays', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { paused: true } } },
      { op: 'update', manager: 'ctl', object: (l) => ({ ...l, spec: { paused: false } }) },
      {
        manager: 'a',
        object: { ...base },
        expectObject: { ...base, spec: { paused: false } },
        expectManaged: { 'ctl/Update': { 'f:spec': { 'f:paused': {} } } },
      },
    ]);
  });

  it('a dropped field with a schema default goes back to the default', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { replicas: 5, paused: true, strategy: { type: 'Recreate' } } } },
      {
        manager: 'a',
        object: { ...base, spec: { paused: true, strategy: {} } },
        expectObject: { ...base, spec: { replicas: 1, paused: true, strategy: { type: 'RollingUpdate' } } },
        expectManaged: { 'a/Apply': { 'f:spec': { 'f:paused': {}, 'f:strategy': {} } } },
      },
    ]);
  });

  it('force removes the fields from every other manager, appliers and updaters alike', () => {
    runScenario([
      { manager: 'a', object: { ...base, spec: { config: { k: '1' }, paused: true } } },
      { op: 'update', manager: 'u', object: (l) => ({ ...l, spec: { ...(l.spec as object), config: { k: '2' } } }) },
      {
        manager: 'b',
        object: { ...base, spec: { config: { k: '3' }, paused: false } },
        force: true,
        expectObject: { ...base, spec: { config: { k: '3' }, paused: false } },
        expectManaged: { 'b/Apply': { 'f:spec': { 'f:config': { 'f:k': {} }, 'f:paused': {} } } },
      },
    ]);
  });

  it('managedFields in an apply configuration is rejected', () => {
    let err: unknown;
    try {
      runScenario([{ manager: 'a', object: { ...base, metadata: { name: 'a', managedFields: [] } } }]);
    } catch (e) {
      err = e;
    }
    expect((err as { code: number }).code).toBe(400);
    expect((err as Error).message).toBe('metadata.managedFields must be nil');
  });

  it('a no-op re-apply keeps the old timestamps', () => {
    const first = runScenario([{ manager: 'a', object: { ...base, spec: { replicas: 3 } } }])!;
    const again = runScenario([{ manager: 'a', object: { ...base, spec: { replicas: 3 } }, at: 100 }], first)!;
    expect(again).toEqual(first);
    const changed = runScenario([{ manager: 'a', object: { ...base, spec: { replicas: 4 } }, at: 100 }], first)!;
    expect((changed.metadata as { managedFields: { time: string }[] }).managedFields[0].time).toBe('2026-01-01T00:01:40Z');
  });
});

import { expect } from 'vitest';
