// PriorityClass rules: the reserved system- prefix, the user value limit,
// preemptionPolicy values, and what an update may not change.
import { describe, expect, it } from 'vitest';
import { priorityClassErrors, priorityClassUpdateErrors } from './priorityclass.ts';

const msgs = (errs: { field: string; toString(): string }[]) => errs.map((e) => e.toString());

describe('PriorityClass validation', () => {
  it.each([
    ['a user class at the limit', { metadata: { name: 'high' }, value: 1_000_000_000 }, []],
    ['the built-in system-node-critical', { metadata: { name: 'system-node-critical' }, value: 2000001000 }, []],
    ['the built-in system-cluster-critical', { metadata: { name: 'system-cluster-critical' }, value: 2000000000 }, []],
    ['a user class above the limit', { metadata: { name: 'high' }, value: 1_000_000_001 }, ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']],
    [
      'an unknown system- name',
      { metadata: { name: 'system-mine' }, value: 5 },
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"],
    ],
    [
      'a system class with another value',
      { metadata: { name: 'system-cluster-critical' }, value: 5 },
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000"],
    ],
    [
      'a system class as global default',
      { metadata: { name: 'system-node-critical' }, value: 2000001000, globalDefault: true },
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-node-critical PriorityClass must be false"],
    ],
    [
      'an unknown preemptionPolicy',
      { metadata: { name: 'p' }, value: 1, preemptionPolicy: 'Sometimes' },
      ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "Never", "PreemptLowerPriority"'],
    ],
  ])('%s', (_n, obj, want) => {
    expect(msgs(priorityClassErrors(obj))).toEqual(want);
  });

  it.each([
    ['value changed', { value: 2, preemptionPolicy: 'Never' }, { value: 1, preemptionPolicy: 'Never' }, ['value: Forbidden: may not be changed in an update.']],
    ['preemptionPolicy changed', { value: 1, preemptionPolicy: 'Never' }, { value: 1, preemptionPolicy: 'PreemptLowerPriority' }, ['preemptionPolicy: Invalid value: "Never": field is immutable']],
    ['description and globalDefault may change', { value: 1, description: 'x', globalDefault: true }, { value: 1 }, []],
  ])('update: %s', (_n, obj, old, want) => {
    expect(msgs(priorityClassUpdateErrors(obj, old))).toEqual(want);
  });
});
