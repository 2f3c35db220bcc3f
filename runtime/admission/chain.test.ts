// The admission chain: plugins in order, a plugin skipped for requests it does not handle,
// sync and async plugins mixed, and the second mutating round on request.
import { describe, expect, it } from 'vitest';
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
