// The deletecollection handler's own guard (behind the router's 405): a
// namespaced resource is never deleted across namespaces, whatever reaches it.
import { describe, expect, it } from 'vitest';
import type { RequestContext } from './context.ts';
import { handleDeleteCollection } from './delete.ts';

describe('handleDeleteCollection', () => {
  it('refuses an empty namespace for a namespaced resource before touching storage', async () => {
    const untouched = () => {
      throw new Error('storage was used');
    };
    const rc = {
      res: { def: { namespaced: true }, store: { list: untouched, delete: untouched } },
      info: { namespace: '', verb: 'deletecollection' },
    } as unknown as RequestContext;
    await expect(handleDeleteCollection(rc)).rejects.toMatchObject({ code: 405, reason: 'MethodNotAllowed' });
  });
});
