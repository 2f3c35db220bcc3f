// LimitRange item defaults (upstream's SetDefaults_LimitRangeItem).
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { defaultLimitRangeItem } from './limitrange.ts';

describe('LimitRange item defaults', () => {
  it.each([
    ['default from max, defaultRequest from default', { type: 'Container', max: { cpu: '2' } }, { type: 'Container', max: { cpu: '2' }, default: { cpu: '2' }, defaultRequest: { cpu: '2' } }],
    ['defaultRequest from min when no default', { type: 'Container', min: { memory: '1Mi' } }, { type: 'Container', min: { memory: '1Mi' }, defaultRequest: { memory: '1Mi' } }],
    [
      'what is set is kept',
      { type: 'Container', max: { cpu: '2' }, default: { cpu: '1' }, defaultRequest: { cpu: '500m' } },
      { type: 'Container', max: { cpu: '2' }, default: { cpu: '1' }, defaultRequest: { cpu: '500m' } },
    ],
    [
      'default request prefers the default limit over min',
      { type: 'Container', min: { cpu: '100m' }, default: { cpu: '1' } },
      { type: 'Container', min: { cpu: '100m' }, default: { cpu: '1' }, defaultRequest: { cpu: '1' } },
    ],
    ['other types are not defaulted', { type: 'Pod', max: { cpu: '2' } }, { type: 'Pod', max: { cpu: '2' } }],
  ] as [string, Obj, Obj][])('%s', (_n, item, want) => {
    defaultLimitRangeItem(item);
    expect(item).toEqual(want);
  });
});
