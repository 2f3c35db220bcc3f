// The Priority plugin over a fake PriorityClass source: what a Pod gets on
// create and keeps on update, the 403s, and the one-global-default rule.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { type PriorityClassSource, priorityPlugin } from './priority.ts';

const source = (classes: Obj[]): PriorityClassSource => ({
  async get(name) {
    return classes.find((c) => c.metadata.name === name);
  },
  async list() {
    return classes;
  },
});
const pc = (name: string, value: number, extra: Obj = {}): Obj => ({ metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...extra });

const podAttrs = (spec: Obj, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: 'p',
  object: { metadata: { name: 'p' }, spec },
  oldObject: null,
  dryRun: false,
  user: { username: 'u', groups: [] } as never,
  ...over,
});
const classAttrs = (obj: Obj, operation: 'CREATE' | 'UPDATE' = 'CREATE'): AdmissionAttributes => ({
  ...podAttrs({}),
  operation,
  group: 'scheduling.k8s.io',
  kind: 'PriorityClass',
  resource: 'priorityclasses',
  namespace: '',
  name: obj.metadata.name,
  object: obj,
});

async function refusal(p: void | Promise<void>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('Priority admission of pods', () => {
  it.each([
    ['no class and no default: 0 and PreemptLowerPriority', [], {}, { priority: 0, preemptionPolicy: 'PreemptLowerPriority' }],
    ['the global default class, named', [pc('low', 5), pc('dflt', 7, { globalDefault: true, preemptionPolicy: 'Never' })], {}, { priorityClassName: 'dflt', priority: 7, preemptionPolicy: 'Never' }],
    ['several defaults: the lowest value', [pc('d1', 9, { globalDefault: true }), pc('d2', 3, { globalDefault: true })], {}, { priorityClassName: 'd2', priority: 3 }],
    ['a named class', [pc('high', 1000)], { priorityClassName: 'high' }, { priority: 1000, preemptionPolicy: 'PreemptLowerPriority' }],
    ['the same priority sent is fine', [pc('high', 1000)], { priorityClassName: 'high', priority: 1000 }, { priority: 1000 }],
  ])('%s', async (_n, classes, spec, want) => {
    const a = podAttrs({ ...spec });
    await priorityPlugin(source(classes)).admit!(a);
    expect(a.object!.spec).toMatchObject(want);
  });

  it.each([
    ['a missing class', { priorityClassName: 'nope' }, 'pods "p" is forbidden: no PriorityClass with name nope was found'],
    [
      'a different priority',
      { priority: 5 },
      'pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    ],
    [
      'a different preemptionPolicy',
      { preemptionPolicy: 'Never' },
      'pods "p" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    ],
  ])('403 for %s', async (_n, spec, message) => {
    const err = await refusal(priorityPlugin(source([])).admit!(podAttrs(spec)));
    expect(err.code).toBe(403);
    expect(err.message).toBe(message);
  });

  it('an update keeps the priority and policy the create set', async () => {
    const a = podAttrs({}, { operation: 'UPDATE', oldObject: { spec: { priority: 7, preemptionPolicy: 'Never' } } });
    await priorityPlugin(source([])).admit!(a);
    expect(a.object!.spec).toEqual({ priority: 7, preemptionPolicy: 'Never' });
  });

  it('leaves subresources and other kinds alone', async () => {
    const a = podAttrs({}, { subresource: 'status' });
    await priorityPlugin(source([])).admit!(a);
    expect(a.object!.spec).toEqual({});
  });
});

describe('Priority admission of PriorityClasses: one global default', () => {
  const existing = [pc('first', 10, { globalDefault: true })];
  it.each([
    [
      'a second default created',
      pc('second', 20, { globalDefault: true }),
      'CREATE' as const,
      'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist',
    ],
    [
      'another class marked default',
      pc('second', 20, { globalDefault: true }),
      'UPDATE' as const,
      'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist',
    ],
    ['the default itself updated', pc('first', 10, { globalDefault: true, description: 'd' }), 'UPDATE' as const, undefined],
    ['a non-default created', pc('third', 1), 'CREATE' as const, undefined],
  ])('%s', async (_n, obj, op, message) => {
    const run = priorityPlugin(source(existing)).validate!(classAttrs(obj, op));
    if (message === undefined) await run;
    else expect((await refusal(run)).message).toBe(message);
  });
});
