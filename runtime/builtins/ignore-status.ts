// For in-process writers that race other writers: a catch handler that lets
// the listed Status codes pass (409 AlreadyExists or Conflict, 404 NotFound
// ...) and rethrows everything else.

import { ApiError } from '../api/errors.ts';

export function ignoreStatus(codes: number[]): (err: unknown) => void {
  return (err) => {
    if (!(err instanceof ApiError && codes.includes(err.code))) throw err;
  };
}
