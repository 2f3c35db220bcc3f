// The gRPC client records its caller's stack at every unary call (an Error
// made before the call is sent, so that a failed call's error can say where
// it was made from). On the write path that is one stack capture per etcd
// request, about a tenth of the client's CPU for a create's one Txn. This
// store's errors never show those stacks (a failed call becomes a
// CommitFailedError with etcd's text, etcd-kv.ts), so the unary methods of
// etcd's KV service client are wrapped once (on the service's prototype, as
// the gRPC client defines them there) so that their synchronous part runs
// with Error.stackTraceLimit at 0, restored as soon as they return. Nothing
// else changes: the same call, options, deadline and callback; streams
// (watches) are left as they are.
import type { ICallable } from 'etcd3';

const WRAPPED = Symbol('etcd unary call without caller stacks');

type Method = ((this: unknown, ...args: unknown[]) => unknown) & {
  requestStream?: boolean;
  responseStream?: boolean;
  path?: string;
  [WRAPPED]?: true;
};

function withoutStacks(original: Method): Method {
  const wrapped: Method = function (this: unknown, ...args: unknown[]) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return original.apply(this, args);
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
  // the method's attributes (path, serializers, stream flags) stay readable on it
  Object.assign(wrapped, original);
  wrapped[WRAPPED] = true;
  return wrapped;
}

/** Wraps the unary methods (a `path`, no stream either way) of a gRPC service client's prototype; once. */
export function dropCallerStacks(serviceClient: object): void {
  const proto = Object.getPrototypeOf(serviceClient) as Record<string, unknown> | null;
  if (!proto) return;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const m = proto[name] as Method;
    if (typeof m !== 'function' || typeof m.path !== 'string' || m.requestStream || m.responseStream || m[WRAPPED]) continue;
    proto[name] = withoutStacks(m);
  }
}

/** The same for the KV service client of an etcd3 client's connection pool. */
export async function dropPoolCallerStacks(pool: ICallable<unknown>): Promise<void> {
  dropCallerStacks(await pool.withConnection('KV', ({ client }) => client));
}
