// The Event rules on the stored (core) shape, per request version: one row
// per rule with upstream's field path and text.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { validateEventCreate, validateEventUpdate } from './event.ts';

const EV = 'events.k8s.io/v1';
const base: Obj = {
  metadata: { name: 'e', namespace: 'ns' },
  involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns' },
  eventTime: '2026-01-01T00:00:00.000001Z',
  type: 'Normal',
  reportingComponent: 'example.com/ctl',
  reportingInstance: 'i',
  action: 'A',
  reason: 'R',
};
const ev = (o: Obj = {}): Obj => ({ ...base, ...o });
const texts = (errs: { toString(): string }[]) => errs.map(String);

describe('validateEventCreate', () => {
  it.each<[string, Obj, string, string[]]>([
    ['a new-style event passes both', ev(), EV, []],
    ['core: no eventTime, namespaces match', ev({ eventTime: undefined, type: undefined }), 'v1', []],
    ['core: no eventTime, mismatch', ev({ eventTime: undefined, involvedObject: { namespace: 'x' } }), 'v1', ['involvedObject.namespace: Invalid value: "x": does not match event.namespace']],
    [
      'core: no eventTime, empty involved namespace outside default',
      ev({ eventTime: undefined, involvedObject: {} }),
      'v1',
      ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    ],
    ['with eventTime a different involved namespace is allowed', ev({ involvedObject: { namespace: 'x' } }), EV, []],
    ['core names reportingComponent', ev({ reportingComponent: undefined }), 'v1', ['reportingComponent: Required value', 'reportingComponent: Invalid value: "": name part must be non-empty']],
    ['events.k8s.io names reportingController', ev({ reportingComponent: 'a/b/c' }), EV, ['reportingController: Invalid value: "a/b/c"']],
    ['action limit', ev({ action: 'x'.repeat(129) }), 'v1', ['action: Invalid value: "": can have at most 128 characters']],
    ['message limit (the note)', ev({ message: 'x'.repeat(1025) }), EV, ['message: Invalid value: "": can have at most 1024 characters']],
    ['events.k8s.io: type', ev({ type: 'Info' }), EV, ['type: Invalid value: "": has invalid value: Info']],
    ['core: any type', ev({ type: 'Info' }), 'v1', []],
    ['events.k8s.io: eventTime required', ev({ eventTime: undefined, involvedObject: { namespace: 'ns' } }), EV, ['eventTime: Required value']],
    [
      'events.k8s.io: deprecated fields unset',
      ev({ count: 2, source: { host: 'h' }, lastTimestamp: '2026-01-01T00:00:00Z' }),
      EV,
      ['lastTimestamp: Invalid value: "": needs to be unset', 'count: Invalid value: "": needs to be unset', 'source: Invalid value: "": needs to be unset'],
    ],
    ['core: deprecated fields allowed', ev({ count: 2, source: { host: 'h' } }), 'v1', []],
    ['events.k8s.io: series', ev({ series: { count: 1 } }), EV, ['series.count: Invalid value: "": should be at least 2', 'series.lastObservedTime: Required value']],
  ])('%s', (_name, obj, version, want) => {
    const got = texts(validateEventCreate(obj, version));
    for (const w of want)
      expect(
        got.some((g) => g.startsWith(w)),
        `${w} in ${got.join('\n')}`,
      ).toBe(true);
    if (want.length === 0) expect(got).toEqual([]);
  });
});

describe('validateEventUpdate', () => {
  it.each<[string, Obj, string, string[]]>([
    ['events.k8s.io: the series may change', ev({ series: { count: 2, lastObservedTime: '2026-01-01T00:00:01.000000Z' } }), EV, []],
    ['events.k8s.io: eventTime below the microsecond may change', ev({ eventTime: '2026-01-01T00:00:00.0000019Z' }), EV, []],
    ['events.k8s.io: eventTime may not', ev({ eventTime: '2026-01-01T00:00:00.000002Z' }), EV, ['eventTime: Invalid value: "2026-01-01T00:00:00.000002Z": field is immutable']],
    ['events.k8s.io: the message may not (upstream checks reason twice, message once)', ev({ message: 'm' }), EV, ['message: Invalid value: "m": field is immutable']],
    ['events.k8s.io: reportingController by its events.k8s.io name', ev({ reportingComponent: 'x.io/y' }), EV, ['reportingController: Invalid value: "x.io/y": field is immutable']],
    ['core: anything may change', ev({ message: 'm', reason: 'Other', reportingComponent: 'x.io/y' }), 'v1', []],
  ])('%s', (_name, obj, version, want) => {
    const got = texts(validateEventUpdate(obj, base, version));
    expect(got.filter((g) => g.includes('immutable') || want.length === 0)).toEqual(want.filter((w) => w.includes('immutable')));
    for (const w of want) expect(got).toContain(w);
  });

  it('reports a changed reason twice, as upstream', () => {
    expect(texts(validateEventUpdate(ev({ reason: 'Other' }), base, EV))).toEqual(['reason: Invalid value: "Other": field is immutable', 'reason: Invalid value: "Other": field is immutable']);
  });
});
