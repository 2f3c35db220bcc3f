// The admission chain's two halves: plugins in order, one reinvocation
// round, and the request deadline (a write whose deadline passed during
// admission is refused with 504, never stored after its client was
// answered).

import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { AdmissionChain, type AdmissionAttributes } from './chain.ts';

const attrs = (deadline?: number): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  resource: 'configmaps',
  subresource: '',
  namespace: 'default',
  name: 'c',
  object: { metadata: { name: 'c' } },
  oldObject: null,
  dryRun: false,
  user: { name: 'u', groups: [] },
  deadline,
});

describe('AdmissionChain', () => {
  it('runs plugins in order, the mutating half again once when asked', async () => {
    const seen: string[] = [];
    const chain = new AdmissionChain([
      {
        name: 'a',
        admit: (x) => {
          seen.push('admit a');
          if (!x.reinvocation!.isReinvoke) x.reinvocation!.shouldReinvoke = true;
        },
      },
      { name: 'b', validate: () => void seen.push('validate b') },
    ]);
    const a = attrs();
    await chain.admit(a);
    await chain.validate(a);
    expect(seen).toEqual(['admit a', 'admit a', 'validate b']);
  });

  it.each(['admit', 'validate'] as const)('%s refuses with 504 once the request deadline has passed', async (half) => {
    const chain = new AdmissionChain([{ name: 'p', admit: () => {}, validate: () => {} }]);
    const err = await chain[half](attrs(Date.now() - 1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).code, (err as ApiError).reason, (err as ApiError).message]).toEqual([504, 'Timeout', 'Timeout: request did not complete within the allotted timeout']);
    // a deadline still ahead, or none, lets the write on
    await expect(chain[half](attrs(Date.now() + 60_000))).resolves.toBeUndefined();
    await expect(chain[half](attrs())).resolves.toBeUndefined();
  });
});
