// The process-wide cache of loaded validators: one per generated directory,
// the same for every server started from it, so a validator is loaded once
// per process rather than once per server; and the list-index wildcard of
// the required fields a strategy reports itself.
import { describe, expect, it } from 'vitest';
import { anyIndex, sharedValidatorCache } from './object-checks.ts';

describe('sharedValidatorCache', () => {
  it.each([
    ['the same directory', '/gen/a', '/gen/a', true],
    ['another directory', '/gen/a', '/gen/b', false],
  ])('%s', (_n, first, second, same) => {
    expect(sharedValidatorCache(first) === sharedValidatorCache(second)).toBe(same);
  });

  it('keeps what a server put in it for the next server', () => {
    const loaded = Promise.resolve(undefined as never);
    sharedValidatorCache('/gen/c').set('io.k8s.api.core.v1.ConfigMap', loaded);
    expect(sharedValidatorCache('/gen/c').get('io.k8s.api.core.v1.ConfigMap')).toBe(loaded);
  });
});

describe('anyIndex', () => {
  it.each([
    ['webhooks[0].sideEffects', 'webhooks[*].sideEffects'],
    ['webhooks[12].matchConditions[3].name', 'webhooks[*].matchConditions[*].name'],
    ['metadata.labels[app]', 'metadata.labels[app]'],
    ['spec.replicas', 'spec.replicas'],
  ])('%s', (path, want) => {
    expect(anyIndex(path)).toBe(want);
  });
});
