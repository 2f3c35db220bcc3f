// Tests of the admission chain's timing: each plugin's run and each half
// are reported with the operation and whether they refused.
import { describe, expect, it } from 'vitest';
import { AdmissionChain, type AdmissionAttributes } from './chain.ts';

const attrs = (): AdmissionAttributes =>
  ({
    operation: 'CREATE',
    group: '',
    version: 'v1',
    kind: 'Pod',
    resource: 'pods',
    subresource: '',
    namespace: 'ns',
    name: 'p',
    object: {},
    oldObject: null,
    dryRun: false,
    user: { name: 'u', groups: [] },
  }) as unknown as AdmissionAttributes;

describe('AdmissionChain timing', () => {
  const refuse = () => {
    throw new Error('no');
  };
  const cases: [string, boolean, string[]][] = [
    [
      'every plugin admits and validates',
      false,
      ['plugin A admit CREATE false', 'plugin B admit CREATE false', 'step admit CREATE false', 'plugin A validate CREATE false', 'step validate CREATE false'],
    ],
    ['a validation refuses', true, ['plugin A admit CREATE false', 'plugin B admit CREATE false', 'step admit CREATE false', 'plugin A validate CREATE true', 'step validate CREATE true']],
  ];
  it.each(cases)('%s', async (_name, refuses, want) => {
    const chain = new AdmissionChain([
      { name: 'A', admit: () => {}, validate: refuses ? refuse : () => {} },
      { name: 'B', admit: async () => {} },
    ]);
    const seen: string[] = [];
    chain.observe({
      plugin: (name, step, op, rejected, s) => {
        expect(s).toBeGreaterThanOrEqual(0);
        seen.push(`plugin ${name} ${step} ${op} ${rejected}`);
      },
      step: (step, op, rejected) => seen.push(`step ${step} ${op} ${rejected}`),
    });
    const a = attrs();
    await chain.admit(a);
    if (refuses) await expect(chain.validate(a)).rejects.toThrow('no');
    else await chain.validate(a);
    expect(seen).toEqual(want);
  });

  it('runs unobserved without timing', async () => {
    const ran: string[] = [];
    const chain = new AdmissionChain([{ name: 'A', admit: () => void ran.push('admit'), validate: () => void ran.push('validate') }]);
    await chain.admit(attrs());
    await chain.validate(attrs());
    expect(ran).toEqual(['admit', 'validate']);
  });
});
