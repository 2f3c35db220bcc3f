// Values that are ready now or later. The request path runs its stages
// synchronously while each has its answer at hand (a cached verdict, a fresh
// watch cache) and turns asynchronous at the first stage that must wait: an
// `await` on a value that is already there still costs a turn of the
// microtask queue per stage, which a read served from memory does not need.

/** A value now, or a promise of it. */
export type Maybe<T> = T | Promise<T>;

/** Whether `v` is a promise (any thenable), rather than the value itself. */
export function isPromise<T>(v: Maybe<T>): v is Promise<T> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** `f(v)` at once when `v` is there, else once it is (a rejection skips `f`). */
export function andThen<T, U>(v: Maybe<T>, f: (value: T) => Maybe<U>): Maybe<U> {
  return isPromise(v) ? v.then(f) : f(v);
}

/**
 * Runs `run` and tells `done` how it ended (`ok` with its value, or not
 * with its error, which is then thrown on): at once when the answer is
 * there, else once it is. The value itself is passed on unchanged.
 */
export function settled<T>(run: () => Maybe<T>, done: (ok: boolean, value: T | undefined, err: unknown) => void): Maybe<T> {
  let out: Maybe<T>;
  try {
    out = run();
  } catch (err) {
    done(false, undefined, err);
    throw err;
  }
  if (!isPromise(out)) {
    done(true, out, undefined);
    return out;
  }
  return out.then(
    (value) => {
      done(true, value, undefined);
      return value;
    },
    (err: unknown) => {
      done(false, undefined, err);
      throw err;
    },
  );
}
