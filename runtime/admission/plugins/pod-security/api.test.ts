// The namespace labels read as a policy: levels, versions, defaults for
// labels not set, and upstream's field errors (and fallbacks) for bad values.

import { describe, expect, it } from 'vitest';
import { compareLevels, levelVersionString, older, parseVersion, policyToEvaluate, v1, LATEST } from './api.ts';

const P = 'pod-security.kubernetes.io/';
const show = (labels: Record<string, string>) => {
  const { policy, errors } = policyToEvaluate(labels);
  return { enforce: levelVersionString(policy.enforce), audit: levelVersionString(policy.audit), warn: levelVersionString(policy.warn), errors: errors.map((e) => e.toString()) };
};

describe('policyToEvaluate', () => {
  it.each([
    ['no labels: privileged:latest everywhere', {}, ['privileged:latest', 'privileged:latest', 'privileged:latest'], []],
    [
      'levels and versions',
      { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.24', [`${P}warn`]: 'restricted', [`${P}audit-version`]: 'v1.0' },
      ['baseline:v1.24', 'privileged:v1.0', 'restricted:latest'],
      [],
    ],
    [
      'a bad enforce level is restricted, bad audit and warn levels privileged',
      { [`${P}enforce`]: 'strict', [`${P}audit`]: 'x', [`${P}warn`]: '' },
      ['restricted:latest', 'privileged:latest', 'privileged:latest'],
      [
        'metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
        'metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "x": must be one of privileged, baseline, restricted',
        'metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "": must be one of privileged, baseline, restricted',
      ],
    ],
    [
      'a bad version is latest',
      { [`${P}enforce`]: 'baseline', [`${P}enforce-version`]: 'v1.024', [`${P}warn-version`]: '1.24' },
      ['baseline:latest', 'privileged:latest', 'privileged:latest'],
      [
        'metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v1.024": must be "latest" or "v1.x"',
        'metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "1.24": must be "latest" or "v1.x"',
      ],
    ],
  ] as [string, Record<string, string>, string[], string[]][])('%s', (_n, labels, [enforce, audit, warn], errors) => {
    expect(show(labels)).toEqual({ enforce, audit, warn, errors });
  });
});

describe('versions and levels', () => {
  it('parses latest and v1.x; a minor past Go int range is an error, one past 2^53 prints as sent', () => {
    expect(parseVersion('latest')).toEqual(LATEST);
    expect(parseVersion('v1.0')).toEqual(v1(0));
    expect(parseVersion('v2.1')).toBeUndefined();
    expect(parseVersion('v1.99999999999999999999')).toBeUndefined();
    expect(levelVersionString({ level: 'baseline', version: parseVersion('v1.9007199254740993')! })).toBe('baseline:v1.9007199254740993');
  });

  it('orders versions (latest newest) and levels', () => {
    expect(older(v1(24), v1(25))).toBe(true);
    expect(older(v1(25), v1(25))).toBe(false);
    expect(older(v1(999), LATEST)).toBe(true);
    expect(older(LATEST, v1(999))).toBe(false);
    expect([compareLevels('privileged', 'baseline'), compareLevels('restricted', 'baseline'), compareLevels('baseline', 'baseline')]).toEqual([-1, 1, 0]);
  });
});
