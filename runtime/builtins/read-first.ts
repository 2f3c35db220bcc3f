// Start-up writers read before they write: the object a built-in keeps is
// read from the store first, and a create (or an update) goes through the
// registry pipeline only when it is missing (or differs). A restart that
// finds everything in place writes nothing and loads no validator.

import { ApiError } from '../api/errors.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { Obj } from '../storage/interface.ts';

/** The stored object, or undefined when there is none. */
export async function storedOrNone(store: RegistryStore, namespace: string, name: string): Promise<Obj | undefined> {
  try {
    return await store.get(namespace, name);
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}
