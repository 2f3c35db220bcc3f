// The ConversionReview checks: review version negotiation, the answer's
// checks with upstream's texts, the identity of converted objects, and the
// metadata rule (only labels and annotations may change).
import { describe, expect, it } from 'vitest';
import { checkConverted, convertedObjectsOf, gvkText, restoreMetadata, reviewRequest, reviewVersionOf } from './review.ts';
import type { Obj } from '../../storage/interface.ts';

describe('reviewVersionOf', () => {
  it.each([
    [['v1'], 'v1'],
    [['v1beta1', 'v1'], 'v1beta1'],
    [['v2', 'v1'], 'v1'],
  ])('%j speaks %s', (list, want) => expect(reviewVersionOf(list)).toBe(want));
  it('refuses a list without a supported version', () => expect(() => reviewVersionOf(['v2'])).toThrow('no supported conversion review versions'));
});

it('builds the request', () => {
  expect(reviewRequest('v1', 'u1', 'example.com/v1', [{ kind: 'W' }])).toEqual({
    kind: 'ConversionReview',
    apiVersion: 'apiextensions.k8s.io/v1',
    request: { uid: 'u1', desiredAPIVersion: 'example.com/v1', objects: [{ kind: 'W' }] },
  });
});

it('prints a GroupVersionKind as Go does', () => {
  expect(gvkText('example.com/v1', 'Widget')).toBe('example.com/v1, Kind=Widget');
  expect(gvkText('v1', 'Pod')).toBe('/v1, Kind=Pod');
  expect(gvkText(undefined, undefined)).toBe('/, Kind=');
});

const ok = (over: Obj = {}): Obj => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'ConversionReview',
  response: { uid: 'u1', result: { status: 'Success' }, convertedObjects: [{ a: 1 }], ...over },
});

describe('convertedObjectsOf', () => {
  it.each<[string, 'v1' | 'v1beta1', unknown, string]>([
    ['wrong kind', 'v1', { ...ok(), kind: 'Other' }, 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=Other'],
    ['not an object', 'v1', 'x', 'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind='],
    ['no response', 'v1', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' }, 'no response provided'],
    ['another uid', 'v1', ok({ uid: 'u2' }), 'expected response.uid="u1", got "u2"'],
    ['a failure with a message', 'v1', ok({ result: { status: 'Failure', message: 'nope' } }), 'nope'],
    ['a failure without one', 'v1', ok({ result: { status: 'Failure' } }), "response.result.status was 'Failure', not 'Success'"],
    ['v1beta1 without response', 'v1beta1', {}, 'no response provided'],
  ])('%s', (_, version, answer, message) => {
    expect(() => convertedObjectsOf(version, 'u1', answer)).toThrow(message);
  });
  it('answers the converted objects', () => expect(convertedObjectsOf('v1', 'u1', ok())).toEqual([{ a: 1 }]));
  it('does not check the uid of a v1beta1 answer', () => expect(convertedObjectsOf('v1beta1', 'u1', { response: { uid: 'x', result: { status: 'Success' }, convertedObjects: [] } })).toEqual([]));
});

const orig: Obj = { kind: 'W', apiVersion: 'g/v1', metadata: { name: 'a', namespace: 'ns', uid: 'x', labels: { l: '1' }, resourceVersion: '5' } };

describe('checkConverted', () => {
  it.each<[string, Obj, string | null]>([
    ['the same identity', { kind: 'W', metadata: { name: 'a', namespace: 'ns', uid: 'x' } }, null],
    ['another kind', { kind: 'V', metadata: { name: 'a', namespace: 'ns', uid: 'x' } }, 'must have the same kind: W != V'],
    ['another name', { kind: 'W', metadata: { name: 'b', namespace: 'ns', uid: 'x' } }, 'must have the same name: a != b'],
    ['another namespace', { kind: 'W', metadata: { name: 'a', uid: 'x' } }, 'must have the same namespace: ns != '],
    ['another uid', { kind: 'W', metadata: { name: 'a', namespace: 'ns', uid: 'y' } }, 'must have the same UID: x != y'],
  ])('%s', (_, converted, message) => {
    if (message === null) expect(() => checkConverted(orig, converted)).not.toThrow();
    else expect(() => checkConverted(orig, converted)).toThrow(message);
  });
});

describe('restoreMetadata', () => {
  it('keeps the original metadata but the labels and annotations of the answer', () => {
    const out = restoreMetadata(orig, { kind: 'W', metadata: { name: 'a', resourceVersion: '9', labels: { l: '2' }, annotations: { n: 'v' } }, spec: { x: 1 } });
    expect(out).toEqual({ kind: 'W', metadata: { name: 'a', namespace: 'ns', uid: 'x', resourceVersion: '5', labels: { l: '2' }, annotations: { n: 'v' } }, spec: { x: 1 } });
  });
  it('drops labels the answer drops', () => {
    expect(restoreMetadata(orig, { metadata: {} }).metadata).toEqual({ name: 'a', namespace: 'ns', uid: 'x', resourceVersion: '5' });
  });
  it.each<[string, Obj, string]>([
    ['no metadata', { kind: 'W' }, 'missing metadata in converted object'],
    ['metadata not an object', { metadata: 'x' }, 'invalid metadata of type string in converted object'],
    ['a label that is not a string', { metadata: { labels: { l: 1 } } }, 'metadata.labels[l] must be a string, but is number in converted object'],
    ['an invalid label value', { metadata: { labels: { l: 'not valid!' } } }, 'metadata.labels: Invalid value: "not valid!"'],
  ])('refuses %s', (_, converted, message) => expect(() => restoreMetadata(orig, converted)).toThrow(message));
});
