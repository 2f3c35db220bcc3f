import { describe, expect, it } from 'vitest';
import type { ResourceDef, VersionConversion } from '../../../generated/api-types.ts';
import { resources } from '../../../generated/registry.ts';
import type { Obj } from '../../storage/interface.ts';
import { applyVersionDefaults, convertDeclared, declaredConverter, declaredObjectVersions, keptAnnotationError, versionDefaultsOf } from './declared.ts';
import { noneConverter } from './converter.ts';

const ZERO = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';
const G = 'g.io';
const beta: VersionConversion = {
  hub: 'v1',
  rules: [
    { op: 'rename', from: ['spec', 'old', 'size'], to: ['spec', 'size'] },
    { op: 'annotation', field: ['spec', 'behavior'], annotation: 'g.io/behavior' },
    { op: 'zeroAnnotation', field: ['spec', 'limited', 'shares'], annotation: 'g.io/zero' },
  ],
  defaults: [],
};
const byVersion = new Map([[`${G}/v1beta1`, beta]]);
const obj = (version: string, spec: Obj, annotations?: Record<string, string>): Obj => ({
  apiVersion: `${G}/${version}`,
  kind: 'A',
  metadata: { name: 'a', ...(annotations ? { annotations } : {}) },
  spec,
});

describe('convertDeclared', () => {
  it.each([
    ['rename to the hub', obj('v1beta1', { old: { size: 3 } }), 'v1', obj('v1', { size: 3 })],
    ['rename from the hub', obj('v1', { size: 3 }), 'v1beta1', obj('v1beta1', { old: { size: 3 } })],
    ['a hub field this version lacks goes into the annotation as JSON', obj('v1', { behavior: { up: [1, 2] } }), 'v1beta1', obj('v1beta1', {}, { 'g.io/behavior': '{"up":[1,2]}' })],
    ['and comes back from it', obj('v1beta1', {}, { 'g.io/behavior': '{"up":[1,2]}', keep: 'me' }), 'v1', obj('v1', { behavior: { up: [1, 2] } }, { keep: 'me' })],
    ['an annotation that is not JSON stays as it is', obj('v1beta1', {}, { 'g.io/behavior': '{' }), 'v1', obj('v1', {}, { 'g.io/behavior': '{' })],
    ['a hub zero is marked', obj('v1', { limited: { shares: 0 } }), 'v1beta1', obj('v1beta1', { limited: { shares: 0 } }, { 'g.io/zero': '' })],
    ['an absent hub field under an existing parent is a zero too', obj('v1', { limited: {} }), 'v1beta1', obj('v1beta1', { limited: {} }, { 'g.io/zero': '' })],
    ['a non-zero is not marked', obj('v1', { limited: { shares: 5 } }), 'v1beta1', obj('v1beta1', { limited: { shares: 5 } })],
    ['no parent, no mark', obj('v1', {}), 'v1beta1', obj('v1beta1', {})],
    ['the mark is dropped on the way to the hub', obj('v1beta1', { limited: { shares: 0 } }, { 'g.io/zero': '' }), 'v1', obj('v1', { limited: { shares: 0 } })],
    ['a version without rules only changes apiVersion', obj('v2', { size: 1 }), 'v1', obj('v1', { size: 1 })],
  ])('%s', (_name, input, version, want) => {
    const before = structuredClone(input);
    expect(convertDeclared(input, `${G}/${version}`, byVersion)).toEqual(want);
    expect(input).toEqual(before); // the source is not changed
  });

  it('drops an annotation that is not JSON when its rule says dropMalformed', () => {
    const dropping: VersionConversion = { hub: 'v1', rules: [{ op: 'annotation', field: ['spec', 'behavior'], annotation: 'g.io/behavior', dropMalformed: true }], defaults: [] };
    const input = obj('v1beta1', {}, { 'g.io/behavior': '{', keep: 'me' });
    expect(convertDeclared(input, `${G}/v1`, new Map([[`${G}/v1beta1`, dropping]]))).toEqual(obj('v1', {}, { keep: 'me' }));
  });

  it('goes through the hub between two spokes', () => {
    const other: VersionConversion = { hub: 'v1', rules: [{ op: 'rename', from: ['spec', 'sz'], to: ['spec', 'size'] }], defaults: [] };
    const both = new Map([...byVersion, [`${G}/v1alpha1`, other]]);
    expect(convertDeclared(obj('v1beta1', { old: { size: 7 } }), `${G}/v1alpha1`, both)).toEqual(obj('v1alpha1', { sz: 7 }));
  });
});

describe('keptAnnotationError', () => {
  const two: VersionConversion = { ...beta, rules: [...beta.rules, { op: 'annotation', field: ['status', 'seen'], annotation: 'g.io/seen' }] };
  it.each([
    ['no annotations', obj('v1beta1', {}), beta, undefined],
    ['JSON in the annotation', obj('v1beta1', {}, { 'g.io/behavior': '{"up":[1]}' }), beta, undefined],
    ['JSON null is JSON', obj('v1beta1', {}, { 'g.io/behavior': 'null' }), beta, undefined],
    ["not JSON: Go's syntax error", obj('v1beta1', {}, { 'g.io/behavior': 'not-json' }), beta, `invalid character 'o' in literal null (expecting 'u')`],
    ['cut short', obj('v1beta1', {}, { 'g.io/behavior': '{"up":' }), beta, 'unexpected end of JSON input'],
    ['empty', obj('v1beta1', {}, { 'g.io/behavior': '' }), beta, 'unexpected end of JSON input'],
    ["another annotation that is not JSON is not the conversion's", obj('v1beta1', {}, { other: '{' }), beta, undefined],
    ['a zero mark is not JSON and need not be', obj('v1beta1', {}, { 'g.io/zero': '' }), beta, undefined],
    ["the first bad one in the rules' order", obj('v1beta1', {}, { 'g.io/seen': ']', 'g.io/behavior': 'x' }), two, `invalid character 'x' looking for beginning of value`],
    ['no declared conversion', obj('v1beta1', {}, { 'g.io/behavior': '{' }), undefined, undefined],
    [
      'a rule that drops what is not JSON',
      obj('v1beta1', {}, { 'g.io/behavior': '{' }),
      { ...beta, rules: [{ ...(beta.rules[1] as object), dropMalformed: true } as VersionConversion['rules'][number]] },
      undefined,
    ],
  ])('%s', (_name, input, conversion, want) => {
    expect(keptAnnotationError(input, conversion)).toBe(want);
  });

  const typed = (goType: string): VersionConversion => ({ hub: 'v1', rules: [{ op: 'annotation', field: ['spec', 'list'], annotation: 'g.io/list', goType }], defaults: [] });
  it.each([
    ['a list', '[{"a":1},null]', '[]v1.Item', undefined],
    ['null fits a list', 'null', '[]v1.Item', undefined],
    ['an object for a list', '{}', '[]v1.Item', 'json: cannot unmarshal object into Go value of type []v1.Item'],
    ['a string for a list', '"x"', '[]v1.Item', 'json: cannot unmarshal string into Go value of type []v1.Item'],
    ['a number for a list', '5', '[]v1.Item', 'json: cannot unmarshal number into Go value of type []v1.Item'],
    ['a bool for a list', 'true', '[]v1.Item', 'json: cannot unmarshal bool into Go value of type []v1.Item'],
    ['the first item that is not an object', '[{},1,"x"]', '[]v1.Item', 'json: cannot unmarshal number into Go value of type v1.Item'],
    ['a list in a list', '[[]]', '[]v1.Item', 'json: cannot unmarshal array into Go value of type v1.Item'],
    ['an object for a struct', '{"a":1}', 'v1.Thing', undefined],
    ['an array for a struct', '[]', 'v1.Thing', 'json: cannot unmarshal array into Go value of type v1.Thing'],
  ])('goType: %s', (_name, text, goType, want) => {
    expect(keptAnnotationError(obj('v1beta1', {}, { 'g.io/list': text }), typed(goType))).toBe(want);
  });

  it('reads the generated autoscaling/v1 HorizontalPodAutoscaler annotations', () => {
    const v1 = resources.find((r) => r.group === 'autoscaling' && r.version === 'v1' && r.kind === 'HorizontalPodAutoscaler')!;
    for (const key of ['metrics', 'current-metrics', 'conditions']) {
      const hpa: Obj = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { annotations: { [`autoscaling.alpha.kubernetes.io/${key}`]: '[' } } };
      expect(keptAnnotationError(hpa, v1.conversion), key).toBe('unexpected end of JSON input');
    }
    const objectFor = (key: string): Obj => ({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { annotations: { [`autoscaling.alpha.kubernetes.io/${key}`]: '{}' } } });
    expect(keptAnnotationError(objectFor('metrics'), v1.conversion)).toBe('json: cannot unmarshal object into Go value of type []v1.MetricSpec');
    expect(keptAnnotationError(objectFor('current-metrics'), v1.conversion)).toBe('json: cannot unmarshal object into Go value of type []v1.MetricStatus');
    expect(keptAnnotationError(objectFor('conditions'), v1.conversion)).toBe('json: cannot unmarshal object into Go value of type []v1.HorizontalPodAutoscalerCondition');
    const behavior: Obj = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { annotations: { 'autoscaling.alpha.kubernetes.io/behavior': '[' } } };
    expect(keptAnnotationError(behavior, v1.conversion)).toBeUndefined();
  });
});

describe('applyVersionDefaults', () => {
  const defaults = [
    { field: ['spec', 'limited', 'nominalConcurrencyShares'], value: 30, zeroIsUnset: true, unlessAnnotation: ZERO },
    { field: ['spec', 'limited', 'nominalConcurrencyShares'], value: 0, zeroIsUnset: false },
  ];
  it.each([
    ['unset gets 30', {}, undefined, 30],
    ['0 means unset and gets 30', { nominalConcurrencyShares: 0 }, undefined, 30],
    ['0 stays 0 with the annotation (any value: upstream asks only whether it is there)', { nominalConcurrencyShares: 0 }, '', 0],
    ['unset is Go zero with the annotation', {}, 'x', 0],
    ['a value stays', { nominalConcurrencyShares: 7 }, undefined, 7],
  ])('%s', (_name, limited, annotation, want) => {
    const o: Obj = { metadata: annotation === undefined ? {} : { annotations: { [ZERO]: annotation } }, spec: { limited } };
    applyVersionDefaults(o, defaults);
    expect(o.spec.limited.nominalConcurrencyShares).toBe(want);
  });

  it('leaves an object without the parent alone', () => {
    const o: Obj = { spec: { type: 'Exempt' } };
    applyVersionDefaults(o, defaults);
    expect(o).toEqual({ spec: { type: 'Exempt' } });
  });
});

describe('the generated flowcontrol declarations', () => {
  const versions = (resource: string): ResourceDef[] => resources.filter((r) => r.group === 'flowcontrol.apiserver.k8s.io' && r.resource === resource);

  it('FlowSchema versions share one shape: only apiVersion changes', () => {
    expect(declaredConverter(versions('flowschemas'))).toBe(noneConverter);
  });

  it('PriorityLevelConfiguration v1beta3 marks a zero and declares its defaults', async () => {
    const c = declaredConverter(versions('prioritylevelconfigurations'));
    expect(c.nop).toBe(false);
    const v1: Obj = { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'p' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0 } } };
    const [b3] = await c.convert([v1], 'flowcontrol.apiserver.k8s.io/v1beta3');
    expect(b3.metadata.annotations).toEqual({ [ZERO]: '' });
    const [back] = await c.convert([b3], 'flowcontrol.apiserver.k8s.io/v1');
    expect(back).toEqual(v1);
    expect(versionDefaultsOf(versions('prioritylevelconfigurations'))?.get('flowcontrol.apiserver.k8s.io/v1beta3')).toHaveLength(2);
    expect(versionDefaultsOf(versions('flowschemas'))).toBeUndefined();
  });
});

describe('the generated Event declarations (events.k8s.io/v1 to its core v1 hub)', () => {
  const versions = resources.filter((r) => r.resource === 'events' && (r.group === '' || r.group === 'events.k8s.io'));
  const c = declaredConverter(versions);
  const core: Obj = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e', namespace: 'ns' },
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns', fieldPath: 'spec.containers{a}' },
    message: 'hello',
    source: { component: 'kubelet', host: 'n1' },
    firstTimestamp: '2026-01-01T00:00:00Z',
    lastTimestamp: '2026-01-01T00:01:00Z',
    count: 3,
    reportingComponent: 'kubelet',
    reportingInstance: 'n1',
    eventTime: '2026-01-01T00:00:00.000001Z',
    series: { count: 2, lastObservedTime: '2026-01-01T00:01:00.000000Z' },
    action: 'Pulling',
    reason: 'Pulled',
    related: { kind: 'Node', name: 'n1' },
    type: 'Normal',
  };
  const events: Obj = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: 'e', namespace: 'ns' },
    regarding: core.involvedObject,
    note: 'hello',
    deprecatedSource: core.source,
    deprecatedFirstTimestamp: core.firstTimestamp,
    deprecatedLastTimestamp: core.lastTimestamp,
    deprecatedCount: 3,
    reportingController: 'kubelet',
    reportingInstance: 'n1',
    eventTime: core.eventTime,
    series: core.series,
    action: 'Pulling',
    reason: 'Pulled',
    related: core.related,
    type: 'Normal',
  };

  it('renames every field upstream maps, both ways', async () => {
    expect((await c.convert([core], 'events.k8s.io/v1'))[0]).toEqual(events);
    expect((await c.convert([events], 'v1'))[0]).toEqual(core);
  });

  it('maps the events.k8s.io field labels to the core ones, derived from the renames', () => {
    const ev = versions.find((v) => v.group === 'events.k8s.io')!;
    expect(ev.conversion?.hubGroup).toBe('');
    expect(ev.conversion?.fieldLabels).toMatchObject({ 'regarding.kind': 'involvedObject.kind', reportingController: 'reportingComponent' });
    expect(ev.conversion?.fieldLabels?.source).toBeUndefined(); // `source` is the core label itself, as upstream
    expect(ev.storageVersion).toBe(false);
  });
});

describe('declaredObjectVersions: the versions the field manager compares ownership in', () => {
  const of = (pred: (r: ResourceDef) => boolean) => declaredObjectVersions(resources.filter(pred));
  it.each([
    ['flowschemas share one shape', (r: ResourceDef) => r.resource === 'flowschemas', undefined],
    [
      'prioritylevelconfigurations',
      (r: ResourceDef) => r.resource === 'prioritylevelconfigurations',
      { 'flowcontrol.apiserver.k8s.io/v1beta3': 'io.k8s.api.flowcontrol.v1beta3.PriorityLevelConfiguration' },
    ],
    [
      'events of both groups',
      (r: ResourceDef) => r.resource === 'events' && (r.group === '' || r.group === 'events.k8s.io'),
      { v1: 'io.k8s.api.core.v1.Event', 'events.k8s.io/v1': 'io.k8s.api.events.v1.Event' },
    ],
    [
      'horizontalpodautoscalers',
      (r: ResourceDef) => r.resource === 'horizontalpodautoscalers',
      { 'autoscaling/v1': 'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler', 'autoscaling/v2': 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler' },
    ],
  ])('%s', (_name, pred, types) => {
    const v = of(pred);
    if (!types) return expect(v).toBeUndefined();
    for (const [apiVersion, type] of Object.entries(types)) expect(v!.typeName(apiVersion)).toBe(type);
    expect(v!.typeName('unknown/v9')).toBeUndefined();
  });

  it('converts an object given in one version (whatever apiVersion it carries) into another, leaving it unchanged', () => {
    const v = of((r) => r.resource === 'events' && (r.group === '' || r.group === 'events.k8s.io'))!;
    const given: Obj = { metadata: { name: 'e' }, note: 'n', regarding: { name: 'p' } };
    const copy = structuredClone(given);
    expect(v.convert(given, 'events.k8s.io/v1', 'v1')).toEqual({ apiVersion: 'v1', metadata: { name: 'e' }, message: 'n', involvedObject: { name: 'p' } });
    expect(given).toEqual(copy);
    expect(v.convert({ apiVersion: 'v1', message: 'm' }, 'v1', 'events.k8s.io/v1')).toEqual({ apiVersion: 'events.k8s.io/v1', note: 'm' });
  });
});
