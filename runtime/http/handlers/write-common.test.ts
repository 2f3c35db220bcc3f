// The answer to a committed write stays a success whatever fails while it
// is built: first again without warnings, then as plain JSON.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestContext } from './context.ts';
import { sendCommitted } from './write-common.ts';

const rc = (warnings: string[]) => ({ c: { req: { method: 'PUT' } }, info: { path: '/api/v1/namespaces/d/configmaps/a' }, warnings }) as unknown as RequestContext;
const stored = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' } };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('sendCommitted', () => {
  it('sends what build returns when it works', async () => {
    const ok = new Response('x', { status: 201 });
    expect(await sendCommitted(rc([]), stored, 201, async () => ok)).toBe(ok);
  });

  it('drops the warnings and builds again when the first build fails', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const r = rc(['bad warning']);
    let calls = 0;
    const res = await sendCommitted(r, stored, 200, async () => {
      calls++;
      if (r.warnings.length) throw new TypeError('invalid header value');
      return new Response('rebuilt', { status: 200 });
    });
    expect(calls).toBe(2);
    expect(await res.text()).toBe('rebuilt');
    expect(r.warnings).toEqual([]);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it.each([[201], [200]])('falls back to plain JSON of the result with status %i when building keeps failing', async (status) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await sendCommitted(rc(['w']), stored, status, async () => {
      throw new Error('conversion failed');
    });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(stored);
  });
});
