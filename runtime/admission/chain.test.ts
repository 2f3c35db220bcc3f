// The admission chain: plugins in order, a plugin skipped for requests it does not handle,
// sync and async plugins mixed, the second mutating round on request; and its
// timing: each plugin's run and each half reported with the operation and whether they refused.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { AdmissionChain, type AdmissionAttributes, type AdmissionPlugin } from './chain.ts';

const attrs = (resource: string): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'X',
  resource,
  subresource: '',
  namespace: 'ns',
  name: 'n',
  object: { metadata: { name: 'n' } },
  oldObject: null,
  dryRun: false,
  user: { name: 'u', groups: [] },
});

function recorder(log: string[]) {
  return (name: string, opts: { async?: boolean; only?: string; reinvoke?: boolean } = {}): AdmissionPlugin => ({
    name,
    handles: opts.only ? (a) => a.resource === opts.only : undefined,
    admit(a) {
      log.push(`${name}.admit${a.reinvocation?.isReinvoke ? '*' : ''}`);
      if (opts.reinvoke && a.reinvocation && !a.reinvocation.isReinvoke) a.reinvocation.shouldReinvoke = true;
      if (opts.async) return Promise.resolve().then(() => void log.push(`${name}.admitted`));
    },
    validate() {
      log.push(`${name}.validate`);
      if (opts.async) return new Promise<void>((resolve) => setImmediate(() => (log.push(`${name}.validated`), resolve())));
    },
  });
}

describe('admission chain', () => {
  it.each([
    ['every plugin for a request all handle', 'pods', ['a.admit', 'b.admit', 'b.admitted', 'c.admit', 'a.validate', 'b.validate', 'b.validated', 'c.validate']],
    ['a plugin that does not handle the request is never called', 'configmaps', ['a.admit', 'b.admit', 'b.admitted', 'a.validate', 'b.validate', 'b.validated']],
  ])('%s', async (_n, resource, want) => {
    const log: string[] = [];
    const p = recorder(log);
    const chain = new AdmissionChain([p('a'), p('b', { async: true }), p('c', { only: 'pods' })]);
    const at = attrs(resource);
    await chain.admit(at);
    await chain.validate(at);
    expect(log).toEqual(want);
  });

  it('runs the mutating half again once when a plugin asks', async () => {
    const log: string[] = [];
    const p = recorder(log);
    const chain = new AdmissionChain([p('a', { reinvoke: true }), p('b', { only: 'secrets' })]);
    await chain.admit(attrs('pods'));
    expect(log).toEqual(['a.admit', 'a.admit*']);
  });

  it('a refusal stops the chain, sync or async', async () => {
    const log: string[] = [];
    const refuse = (async: boolean): AdmissionPlugin => ({
      name: 'no',
      validate() {
        if (async) return Promise.reject(new Error('refused'));
        throw new Error('refused');
      },
    });
    for (const async of [false, true]) {
      const chain = new AdmissionChain([refuse(async), recorder(log)('after')]);
      await expect(chain.validate(attrs('pods'))).rejects.toThrow('refused');
    }
    expect(log).toEqual([]);
  });
});

const podAttrs = (): AdmissionAttributes =>
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
    const a = podAttrs();
    await chain.admit(a);
    if (refuses) await expect(chain.validate(a)).rejects.toThrow('no');
    else await chain.validate(a);
    expect(seen).toEqual(want);
  });

  it('runs unobserved without timing', async () => {
    const ran: string[] = [];
    const chain = new AdmissionChain([{ name: 'A', admit: () => void ran.push('admit'), validate: () => void ran.push('validate') }]);
    await chain.admit(podAttrs());
    await chain.validate(podAttrs());
    expect(ran).toEqual(['admit', 'validate']);
  });
});

describe('AdmissionChain request deadline', () => {
  const withDeadline = (deadline?: number): AdmissionAttributes => ({ ...attrs('configmaps'), deadline });

  it.each(['admit', 'validate'] as const)('%s refuses with 504 once the request deadline has passed', async (half) => {
    const chain = new AdmissionChain([{ name: 'p', admit: () => {}, validate: () => {} }]);
    const err = await chain[half](withDeadline(Date.now() - 1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).code, (err as ApiError).reason, (err as ApiError).message]).toEqual([504, 'Timeout', 'Timeout: request did not complete within the allotted timeout']);
    // a deadline still ahead, or none, lets the write on
    await expect(chain[half](withDeadline(Date.now() + 60_000))).resolves.toBeUndefined();
    await expect(chain[half](withDeadline())).resolves.toBeUndefined();
  });
});
