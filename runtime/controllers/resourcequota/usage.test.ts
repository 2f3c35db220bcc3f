// Quota usage recalculated from objects, and the status a quota should have.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { formatList } from '../../admission/plugins/resource-quota/resources.ts';
import { calculateUsage, desiredStatus, needsSync } from './usage.ts';

const objects: Record<string, Obj[]> = {
  '/pods': [
    { metadata: { name: 'a' }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: '250m' } } }] } },
    { metadata: { name: 'b' }, spec: { containers: [{ name: 'c' }] } },
    { metadata: { name: 'done' }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1' } } }] }, status: { phase: 'Failed' } },
  ],
  '/configmaps': [{ metadata: { name: 'x' } }, { metadata: { name: 'y' } }],
  'apps/deployments': [{ metadata: { name: 'd' } }],
};
const list = async (group: string, resource: string) => objects[`${group}/${resource}`] ?? (resource === 'unserved' ? undefined : []);
const quota = (hard: Record<string, string>, spec: Obj = {}, status?: Obj): Obj => ({ metadata: { name: 'q', namespace: 'ns' }, spec: { hard, ...spec }, ...(status ? { status } : {}) });

describe('calculateUsage', () => {
  it.each([
    ['pods and compute', { pods: '10', 'count/pods': '10', 'requests.cpu': '4' }, {}, { 'count/pods': '3', pods: '2', 'requests.cpu': '250m' }],
    [
      'object counts, legacy names and other groups',
      { configmaps: '5', 'count/configmaps': '5', 'count/deployments.apps': '1' },
      {},
      { configmaps: '2', 'count/configmaps': '2', 'count/deployments.apps': '1' },
    ],
    ['scopes select pods', { pods: '10' }, { scopes: ['BestEffort'] }, { pods: '1' }],
    ['a resource nothing uses is zero', { services: '2', 'count/widgets.example.com': '1' }, {}, { 'count/widgets.example.com': '0', services: '0' }],
    ['an object count under a scope counts nothing', { 'count/configmaps': '5' }, { scopes: ['BestEffort'] }, { 'count/configmaps': '0' }],
  ] as [string, Record<string, string>, Obj, Record<string, string>][])('%s', async (_n, hard, spec, want) => {
    expect(formatList(await calculateUsage(quota(hard, spec), list, 0))).toEqual(want);
  });
});

describe('desiredStatus', () => {
  it('hard follows spec; used is masked to hard', async () => {
    const q = quota({ pods: '5' }, {}, { hard: { pods: '4', secrets: '1' }, used: { pods: '9', secrets: '1' } });
    expect(desiredStatus(q, new Map([['pods', (await calculateUsage(q, list, 0)).get('pods')!]]))).toEqual({ hard: { pods: '5' }, used: { pods: '2' } });
  });
  it('nothing to write when status is current', async () => {
    const q = quota({ pods: '5' }, {}, { hard: { pods: '5' }, used: { pods: '2' } });
    expect(desiredStatus(q, await calculateUsage(q, list, 0))).toBeUndefined();
  });
  it.each([
    ['no status', quota({ pods: '1' }), true],
    ['hard changed', quota({ pods: '2' }, {}, { hard: { pods: '1' }, used: { pods: '0' } }), true],
    ['a hard name without usage', quota({ pods: '1', secrets: '1' }, {}, { hard: { pods: '1', secrets: '1' }, used: { pods: '0' } }), true],
    ['current', quota({ pods: '1' }, {}, { hard: { pods: '1' }, used: { pods: '1' } }), false],
  ] as [string, Obj, boolean][])('needsSync: %s', (_n, q, want) => {
    expect(needsSync(q)).toBe(want);
  });
});
