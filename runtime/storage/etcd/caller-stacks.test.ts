import { describe, expect, it } from 'vitest';
import { dropCallerStacks } from './caller-stacks.ts';

type Frames = { tag: string; frames: number; limitInside: number };

// a stand-in for a generated gRPC service client: methods on the service's prototype carrying their attributes
function serviceClass() {
  function unary(this: unknown, tag: string): Frames {
    const stack = new Error().stack ?? '';
    return { tag, frames: stack.split('\n').length - 1, limitInside: Error.stackTraceLimit };
  }
  class Service {
    declare Txn: (tag: string) => Frames;
    declare Watch: (tag: string) => Frames;
    declare helper: (tag: string) => Frames;
  }
  const proto = Service.prototype as unknown as Record<string, unknown>;
  proto.Txn = Object.assign(
    function (this: unknown, tag: string) {
      return unary.call(this, tag);
    },
    { path: '/etcdserverpb.KV/Txn', requestStream: false, responseStream: false },
  );
  proto.Watch = Object.assign(
    function (this: unknown, tag: string) {
      return unary.call(this, tag);
    },
    { path: '/etcdserverpb.Watch/Watch', requestStream: true, responseStream: true },
  );
  proto.helper = function (this: unknown, tag: string) {
    return unary.call(this, tag);
  };
  return Service;
}

describe('dropCallerStacks', () => {
  const cases = [
    { method: 'Txn' as const, wrapped: true },
    { method: 'Watch' as const, wrapped: false },
    { method: 'helper' as const, wrapped: false },
  ];
  for (const c of cases) {
    it(`${c.method}: ${c.wrapped ? 'records no frames, limit 0 inside, result and attributes kept' : 'left as it is'}`, () => {
      const Service = serviceClass();
      const before = new Service()[c.method]('x');
      expect(before.frames).toBeGreaterThan(0);
      const path = (Service.prototype[c.method] as unknown as { path?: string }).path;
      dropCallerStacks(new Service());
      const after = new Service()[c.method]('x');
      expect(after.tag).toBe('x');
      expect(after.frames === 0).toBe(c.wrapped);
      expect(after.limitInside === 0).toBe(c.wrapped);
      expect((Service.prototype[c.method] as unknown as { path?: string }).path).toBe(path);
      expect(Error.stackTraceLimit).toBeGreaterThan(0);
    });
  }

  it('restores the limit when the call throws, and wraps once', () => {
    const limit = Error.stackTraceLimit;
    class Service {}
    const proto = Service.prototype as unknown as Record<string, unknown>;
    proto.Put = Object.assign(
      () => {
        throw new Error('Incorrect arguments passed');
      },
      { path: '/etcdserverpb.KV/Put' },
    );
    dropCallerStacks(new Service());
    const once = proto.Put;
    dropCallerStacks(new Service());
    expect(proto.Put).toBe(once);
    expect(() => (proto.Put as () => void)()).toThrow('Incorrect arguments passed');
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
