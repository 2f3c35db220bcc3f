// The checks of a webhook's answer (upstream's VerifyAdmissionResponse
// texts), the review version chosen from admissionReviewVersions, and the
// review body.
import { describe, expect, it } from 'vitest';
import { reviewBody, reviewVersionOf, verifyResponse, type ReviewVersion } from './review.ts';

const UID = 'u-1';
const v1 = (response: unknown, extra: Record<string, unknown> = {}) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response, ...extra });
const PATCH = Buffer.from('[{"op":"add","path":"/a","value":1}]').toString('base64');

describe('verifyResponse', () => {
  it.each<[string, ReviewVersion, boolean, unknown, string]>([
    ['no response', 'v1', false, v1(undefined), 'webhook response was absent'],
    ['garbage', 'v1', false, 'garbage', 'webhook response was absent'],
    ['a wrong uid', 'v1', false, v1({ uid: 'other', allowed: true }), 'expected response.uid="u-1", got "other"'],
    ['no uid', 'v1', false, v1({ allowed: true }), 'expected response.uid="u-1", got ""'],
    [
      'a v1beta1 review answering a v1 request',
      'v1',
      false,
      { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: UID, allowed: true } },
      'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview',
    ],
    ['no apiVersion and kind', 'v1', false, { response: { uid: UID, allowed: true } }, 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind='],
    ['a patch without patchType', 'v1', true, v1({ uid: UID, allowed: true, patch: PATCH }), 'webhook returned response.patch but not response.patchType'],
    ['a patchType without patch', 'v1', true, v1({ uid: UID, allowed: true, patchType: 'JSONPatch' }), 'webhook returned response.patchType but not response.patch'],
    ['an empty patchType', 'v1', true, v1({ uid: UID, allowed: true, patch: PATCH, patchType: '' }), 'webhook returned invalid response.patchType of ""'],
    ['a patch from a validating webhook', 'v1', false, v1({ uid: UID, allowed: true, patch: PATCH }), 'validating webhook may not return response.patch'],
    ['a patchType from a validating webhook', 'v1', false, v1({ uid: UID, allowed: true, patchType: 'JSONPatch' }), 'validating webhook may not return response.patchType'],
  ])('refuses %s', (_name, version, mutating, answer, want) => {
    expect(() => verifyResponse(version, UID, mutating, answer)).toThrow(want);
  });

  it('reads allowed, status, warnings, audit annotations and the decoded patch', () => {
    const r = verifyResponse(
      'v1',
      UID,
      true,
      v1({ uid: UID, allowed: false, status: { code: 409, message: 'no' }, warnings: ['w1', 2], auditAnnotations: { k: 'v', n: 1 }, patch: PATCH, patchType: 'JSONPatch' }),
    );
    expect(r).toEqual({
      allowed: false,
      status: { code: 409, message: 'no' },
      warnings: ['w1'],
      auditAnnotations: { k: 'v' },
      patch: Buffer.from('[{"op":"add","path":"/a","value":1}]'),
      patchType: 'JSONPatch',
    });
  });

  it('v1beta1: uid and kind are not checked, and a patch is a JSON patch', () => {
    const r = verifyResponse('v1beta1', UID, true, { response: { allowed: true, patch: PATCH } });
    expect(r.allowed).toBe(true);
    expect(r.patchType).toBe('JSONPatch');
  });
});

describe('reviewVersionOf', () => {
  it.each<[string[], ReviewVersion | undefined]>([
    [['v1', 'v1beta1'], 'v1'],
    [['v1beta1', 'v1'], 'v1beta1'],
    [['v2', 'v1beta1'], 'v1beta1'],
    [['v2'], undefined],
    [[], undefined],
  ])('%j → %s', (versions, want) => {
    expect(reviewVersionOf(versions)).toBe(want);
  });
});

describe('reviewBody', () => {
  it('is the review of the version with the object and oldObject in the request', () => {
    const request = {
      uid: UID,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      operation: 'CREATE',
      userInfo: { username: 'alice' },
      dryRun: false,
    };
    expect(JSON.parse(reviewBody('v1beta1', request, { a: 1 }, null))).toEqual({
      kind: 'AdmissionReview',
      apiVersion: 'admission.k8s.io/v1beta1',
      request: { ...request, object: { a: 1 }, oldObject: null },
    });
  });
});
