// The resourceVersion tables as data: plans for get, list and watch, and the
// refused combinations with upstream's field errors.
import { describe, expect, it } from 'vitest';
import { planGet, planList, planWatch, validateListOptions, validateWatchOptions } from './options.ts';
import { ListOptionsInvalidError } from '../errors.ts';
import { InvalidRequestError, type ListOptions, type WatchOptions } from '../interface.ts';

describe('planGet', () => {
  it.each([
    [undefined, { kind: 'consistent' }],
    ['', { kind: 'consistent' }],
    ['0', { kind: 'any' }],
    ['17', { kind: 'notOlderThan', rev: 17 }],
  ])('%s', (rv, want) => expect(planGet(rv)).toEqual(want));
  it('refuses junk versions', () => {
    expect(() => planGet('12a')).toThrow(new InvalidRequestError('invalid resource version: resourceVersion: Invalid value: "12a": strconv.ParseUint: parsing "12a": invalid syntax'));
    expect(() => planGet('-1')).toThrow(InvalidRequestError);
  });
});

describe('planList', () => {
  const rows: [ListOptions, unknown][] = [
    [{}, { kind: 'consistent' }],
    [{ limit: 5 }, { kind: 'consistent' }],
    [{ resourceVersion: '0' }, { kind: 'any' }],
    [{ resourceVersion: '0', limit: 5 }, { kind: 'any' }],
    [{ resourceVersion: '9' }, { kind: 'notOlderThan', rev: 9 }],
    [
      { resourceVersion: '9', limit: 5 },
      { kind: 'exact', rev: 9 },
    ],
    [{ resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' }, { kind: 'any' }],
    [
      { resourceVersion: '9', resourceVersionMatch: 'NotOlderThan' },
      { kind: 'notOlderThan', rev: 9 },
    ],
    [
      { resourceVersion: '9', resourceVersionMatch: 'NotOlderThan', limit: 5 },
      { kind: 'notOlderThan', rev: 9 },
    ],
    [
      { resourceVersion: '9', resourceVersionMatch: 'Exact' },
      { kind: 'exact', rev: 9 },
    ],
  ];
  for (const [opts, want] of rows)
    it(JSON.stringify(opts), () => {
      validateListOptions(opts);
      expect(planList(opts)).toEqual(want);
    });

  const invalid: [ListOptions, string[]][] = [
    [{ resourceVersionMatch: 'Exact' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']],
    [{ resourceVersion: '0', resourceVersionMatch: 'Exact' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"']],
    [{ resourceVersion: '5', resourceVersionMatch: 'NotOlderThan', continue: 'x' }, ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']],
    [
      { resourceVersionMatch: 'Exact', continue: 'x' },
      [
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
      ],
    ],
  ];
  for (const [opts, msgs] of invalid)
    it(`refuses ${JSON.stringify(opts)}`, () => {
      let err: unknown;
      try {
        validateListOptions(opts);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ListOptionsInvalidError);
      expect((err as ListOptionsInvalidError).errors.map((e) => e.toString())).toEqual(msgs);
      expect((err as ListOptionsInvalidError).code).toBe(422);
    });
});

describe('planWatch', () => {
  const rows: [Partial<WatchOptions>, unknown][] = [
    [{}, { initialEvents: true, initialEventsEndBookmark: false, start: { kind: 'consistent' } }],
    [{ resourceVersion: '0' }, { initialEvents: true, initialEventsEndBookmark: false, start: { kind: 'any' } }],
    [{ resourceVersion: '7' }, { initialEvents: false, initialEventsEndBookmark: false, start: { kind: 'exact', rev: 7 } }],
    [
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true },
      { initialEvents: true, initialEventsEndBookmark: true, start: { kind: 'consistent' } },
    ],
    [
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', resourceVersion: '7', allowWatchBookmarks: true },
      { initialEvents: true, initialEventsEndBookmark: true, start: { kind: 'notOlderThan', rev: 7 } },
    ],
    [
      { sendInitialEvents: false, resourceVersionMatch: 'NotOlderThan', resourceVersion: '7' },
      { initialEvents: false, initialEventsEndBookmark: false, start: { kind: 'exact', rev: 7 } },
    ],
  ];
  for (const [o, want] of rows)
    it(JSON.stringify(o), () => {
      const opts = { recursive: true, ...o } as WatchOptions;
      validateWatchOptions(opts);
      expect(planWatch(opts)).toEqual(want);
    });
  it('refuses a match without sendInitialEvents and an unknown match', () => {
    expect(() => validateWatchOptions({ recursive: true, resourceVersionMatch: 'NotOlderThan' })).toThrow(ListOptionsInvalidError);
    let err: ListOptionsInvalidError | undefined;
    try {
      validateWatchOptions({ recursive: true, sendInitialEvents: true, resourceVersionMatch: 'Exact' as never });
    } catch (e) {
      err = e as ListOptionsInvalidError;
    }
    expect(err!.errors.map((e) => e.toString())).toEqual([
      'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
    ]);
  });
  it.each([
    [
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' as const },
      ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'],
    ],
    [
      { sendInitialEvents: false },
      [
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      ],
    ],
    [{ allowWatchBookmarks: true }, []],
  ])('with the WatchList gate off: %j', (o, want) => {
    let got: string[] = [];
    try {
      validateWatchOptions({ recursive: true, ...o }, false);
    } catch (e) {
      got = (e as ListOptionsInvalidError).errors.map((x) => x.toString());
    }
    expect(got).toEqual(want);
  });
});
