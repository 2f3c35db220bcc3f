// Tests of the TokenReview request and the strict reading of a webhook's answer.

import { describe, expect, it } from 'vitest';
import { parseWebhookVersion, readTokenReviewStatus, TokenReviewFormatError, tokenReviewRequest } from './token-review.ts';

describe('tokenReviewRequest', () => {
  it.each([
    ['v1', 'v1', [], { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: { creationTimestamp: null }, spec: { token: 't' }, status: { user: {} } }],
    [
      'v1beta1 with audiences',
      'v1beta1',
      ['api', 'x'],
      { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview', metadata: { creationTimestamp: null }, spec: { token: 't', audiences: ['api', 'x'] }, status: { user: {} } },
    ],
  ] as const)('%s', (_name, version, audiences, want) => {
    expect(tokenReviewRequest(version, 't', [...audiences])).toEqual(want);
  });
});

describe('parseWebhookVersion', () => {
  it("accepts v1 and v1beta1 and refuses others with upstream's text", () => {
    expect(parseWebhookVersion('v1')).toBe('v1');
    expect(parseWebhookVersion('v1beta1')).toBe('v1beta1');
    expect(() => parseWebhookVersion('v2')).toThrow('unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"');
  });
});

describe('readTokenReviewStatus', () => {
  const ok: [string, unknown, unknown][] = [
    [
      'authenticated with everything',
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        status: { authenticated: true, user: { username: 'jane', uid: '42', groups: ['dev'], extra: { scopes: ['a'] } }, audiences: ['api'] },
      },
      { authenticated: true, user: { name: 'jane', uid: '42', groups: ['dev'], extra: { scopes: ['a'] } }, audiences: ['api'], error: '' },
    ],
    ['not authenticated, no status fields', { status: {} }, { authenticated: false, user: { name: '', groups: [] }, audiences: [], error: '' }],
    ['no status at all', {}, { authenticated: false, user: { name: '', groups: [] }, audiences: [], error: '' }],
    ['an error', { status: { authenticated: false, error: 'expired' } }, { authenticated: false, user: { name: '', groups: [] }, audiences: [], error: 'expired' }],
    [
      'nulls',
      { status: { authenticated: true, user: { username: 'a', groups: null, extra: null }, audiences: null } },
      { authenticated: true, user: { name: 'a', groups: [] }, audiences: [], error: '' },
    ],
  ];
  it.each(ok)('%s', (_name, body, want) => {
    expect(readTokenReviewStatus(body)).toEqual(want);
  });

  const bad: [string, unknown][] = [
    ['a string', 'ok'],
    ['an array', []],
    ['another kind', { kind: 'Status' }],
    ['authenticated a string', { status: { authenticated: 'true' } }],
    ['groups a string', { status: { authenticated: true, user: { username: 'a', groups: 'dev' } } }],
    ['a group a number', { status: { authenticated: true, user: { username: 'a', groups: [1] } } }],
    ['extra values not a list', { status: { authenticated: true, user: { username: 'a', extra: { k: 'v' } } } }],
    ['username a number', { status: { authenticated: true, user: { username: 7 } } }],
    ['audiences a string', { status: { audiences: 'api' } }],
    ['status a list', { status: [] }],
  ];
  it.each(bad)('refuses %s', (_name, body) => {
    expect(() => readTokenReviewStatus(body)).toThrow(TokenReviewFormatError);
  });
});
