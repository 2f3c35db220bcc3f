import { describe, expect, it } from 'vitest';
import { defaultPriorityLevel } from './flowcontrol.ts';

const PRESERVE_ZERO_SHARES_ANNOTATION = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';

describe('defaultPriorityLevel', () => {
  it.each([
    ['v1 unset gets 30', 'v1', {}, undefined, 30],
    ['v1 explicit 0 stays 0', 'v1', { nominalConcurrencyShares: 0 }, undefined, 0],
    ['v1 explicit 5 stays', 'v1', { nominalConcurrencyShares: 5 }, undefined, 5],
    // v1beta3's shares default is declared in its spec (runtime/registry/conversion/declared.test.ts)
    ['v1beta3 shares are left to the declared default', 'v1beta3', { nominalConcurrencyShares: 0 }, undefined, 0],
    ['v1beta3 unset shares stay unset here', 'v1beta3', {}, '', undefined],
  ])('%s', (_name, version, limited, annotation, want) => {
    const obj: any = { metadata: annotation ? { annotations: { [PRESERVE_ZERO_SHARES_ANNOTATION]: annotation } } : {}, spec: { type: 'Limited', limited } };
    defaultPriorityLevel(obj, version);
    expect(obj.spec.limited.nominalConcurrencyShares).toBe(want);
    expect(obj.spec.limited.lendablePercent).toBe(0);
  });

  it('fills queuing and exempt defaults and is idempotent', () => {
    const obj: any = { spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 10 } } } } };
    defaultPriorityLevel(obj, 'v1');
    defaultPriorityLevel(obj, 'v1');
    expect(obj.spec.limited.limitResponse.queuing).toEqual({ queues: 10, handSize: 8, queueLengthLimit: 50 });
    const ex: any = { spec: { type: 'Exempt', exempt: {} } };
    defaultPriorityLevel(ex, 'v1');
    expect(ex.spec.exempt).toEqual({ nominalConcurrencyShares: 0, lendablePercent: 0 });
  });
});
