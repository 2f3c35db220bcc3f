// The deprecation rule: which versions warn, and upstream's wording of the
// warning in each of its variants (with and without removal and replacement).

import { describe, expect, it } from 'vitest';
import type { Deprecation, ResourceDef } from '../../generated/api-types.ts';
import { resources } from '../../generated/registry.ts';
import { deprecatedVersion, recordDeprecatedUse } from './deprecation.ts';
import { newRequestRecord } from './request-record.ts';

function def(group: string, version: string, kind: string, deprecation?: Deprecation): ResourceDef {
  return { group, version, kind, deprecation } as ResourceDef;
}

describe('deprecatedVersion', () => {
  it.each([
    {
      name: 'deprecated, removal and replacement known',
      d: def('flowcontrol.apiserver.k8s.io', 'v1beta3', 'FlowSchema', {
        deprecatedIn: '1.29',
        removedIn: '1.32',
        replacement: { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'FlowSchema' },
      }),
      want: {
        warning: 'flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema',
        removedRelease: '1.32',
      },
    },
    {
      name: 'no replacement',
      d: def('g.io', 'v1beta1', 'A', { deprecatedIn: '1.20', removedIn: '1.40' }),
      want: { warning: 'g.io/v1beta1 A is deprecated in v1.20+, unavailable in v1.40+', removedRelease: '1.40' },
    },
    {
      name: 'no removal',
      d: def('g.io', 'v1beta1', 'A', { deprecatedIn: '1.20', replacement: { group: 'g.io', version: 'v1', kind: 'B' } }),
      want: { warning: 'g.io/v1beta1 A is deprecated in v1.20+; use g.io/v1 B' },
    },
    { name: 'core group-versions print bare', d: def('', 'v1', 'ComponentStatus', { deprecatedIn: '1.19' }), want: { warning: 'v1 ComponentStatus is deprecated in v1.19+' } },
    { name: 'deprecated in this release', d: def('g.io', 'v1', 'A', { deprecatedIn: '1.31' }), want: { warning: 'g.io/v1 A is deprecated in v1.31+' } },
    { name: 'deprecated only in a later release: not yet', d: def('g.io', 'v1', 'A', { deprecatedIn: '1.32', removedIn: '1.35' }), want: undefined },
    { name: 'removal known but no deprecation release: not deprecated', d: def('g.io', 'v1', 'A', { removedIn: '1.35' }), want: undefined },
    { name: 'no facts', d: def('g.io', 'v1', 'A'), want: undefined },
    { name: "a CRD version's own text", d: def('x.io', 'v1', 'A', { warning: 'x.io/v1 A is going away' }), want: { warning: 'x.io/v1 A is going away' } },
  ])('$name', ({ d, want }) => {
    expect(deprecatedVersion(d)).toEqual(want);
  });

  it('compares releases numerically', () => {
    expect(deprecatedVersion(def('g.io', 'v1', 'A', { deprecatedIn: '1.9' }), '1.31')).toBeDefined();
    expect(deprecatedVersion(def('g.io', 'v1', 'A', { deprecatedIn: '1.100' }), '1.31')).toBeUndefined();
    expect(deprecatedVersion(def('g.io', 'v1', 'A', { deprecatedIn: '2.0' }), '1.31')).toBeUndefined();
  });

  it("states flowcontrol v1beta3's facts in the generated registry as 1.31 has them", () => {
    const fs = resources.find((r) => r.group === 'flowcontrol.apiserver.k8s.io' && r.version === 'v1beta3' && r.kind === 'FlowSchema');
    expect(fs && deprecatedVersion(fs)?.warning).toBe('flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema');
  });
});

describe('recordDeprecatedUse', () => {
  it.each([
    { dep: { warning: 'w', removedRelease: '1.32' }, deprecated: { removedRelease: '1.32' }, annotations: { 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': '1.32' } },
    { dep: { warning: 'w' }, deprecated: {}, annotations: { 'k8s.io/deprecated': 'true' } },
  ])('marks the record and annotates it ($annotations)', ({ dep, deprecated, annotations }) => {
    const r = newRequestRecord(undefined, 0);
    recordDeprecatedUse(r, dep);
    expect(r.deprecated).toEqual(deprecated);
    expect(r.annotations).toEqual(annotations);
  });
});
