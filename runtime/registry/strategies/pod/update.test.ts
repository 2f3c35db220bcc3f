import { describe, expect, it } from 'vitest';
import { POD_UPDATE_FORBIDDEN, podUpdateErrors } from './update.ts';

const pod = (spec: Record<string, any>) => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'a:1' }], ...spec } });

describe('podUpdateErrors', () => {
  it.each([
    ['nothing changed', {}, {}, []],
    ['image may change', {}, { containers: [{ name: 'c', image: 'a:2' }] }, []],
    ['env may not change', {}, { containers: [{ name: 'c', image: 'a:1', env: [{ name: 'A', value: 'b' }] }] }, [`spec: Forbidden: ${POD_UPDATE_FORBIDDEN}`]],
    [
      'containers may not be added',
      {},
      {
        containers: [
          { name: 'c', image: 'a:1' },
          { name: 'd', image: 'b' },
        ],
      },
      ['spec.containers: Forbidden: pod updates may not add or remove containers'],
    ],
    ['activeDeadlineSeconds set', {}, { activeDeadlineSeconds: 30 }, []],
    ['activeDeadlineSeconds lowered', { activeDeadlineSeconds: 30 }, { activeDeadlineSeconds: 10 }, []],
    ['activeDeadlineSeconds raised', { activeDeadlineSeconds: 30 }, { activeDeadlineSeconds: 60 }, ['spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value']],
    ['activeDeadlineSeconds removed', { activeDeadlineSeconds: 30 }, {}, ['spec.activeDeadlineSeconds: Invalid value: "null": must not update from a positive integer to nil value']],
    [
      'toleration added',
      { tolerations: [{ key: 'a', operator: 'Exists' }] },
      {
        tolerations: [
          { key: 'a', operator: 'Exists' },
          { key: 'b', operator: 'Exists' },
        ],
      },
      [],
    ],
    [
      'toleration removed',
      { tolerations: [{ key: 'a', operator: 'Exists' }] },
      { tolerations: [] },
      ['spec.tolerations[0]: Forbidden: existing toleration can not be modified except its tolerationSeconds'],
    ],
    ['scheduling gate removed', { schedulingGates: [{ name: 'g' }] }, { schedulingGates: [] }, []],
    ['scheduling gate added', {}, { schedulingGates: [{ name: 'g' }] }, ["spec.schedulingGates: Forbidden: only deletion is allowed, but found new scheduling gate 'g'"]],
    ['grace period negative to 1', { terminationGracePeriodSeconds: -1 }, { terminationGracePeriodSeconds: 1 }, []],
    ['grace period otherwise fixed', { terminationGracePeriodSeconds: 30 }, { terminationGracePeriodSeconds: 10 }, [`spec: Forbidden: ${POD_UPDATE_FORBIDDEN}`]],
  ])('%s', (_n, before, after, want) => {
    expect(podUpdateErrors(pod(after), pod(before)).map(String)).toEqual(want);
  });
});
