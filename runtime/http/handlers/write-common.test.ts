// The answer to a committed write stays a success whatever fails while it
// is built: first again without warnings, then as plain JSON.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestContext } from './context.ts';
import { sendCommitted } from './write-common.ts';

const rc = (warnings: string[]) =>
  ({ c: { req: { method: 'PUT' } }, info: { path: '/api/v1/namespaces/d/configmaps/a' }, warnings, record: { auditID: 'audit-1', receivedAt: 0, annotations: {} } }) as unknown as RequestContext;
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
    // the server's log: klog lines on standard error
    const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
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
    expect(String(log.mock.calls[0][0])).toMatch(
      /^E\d{4} .*\] "Response of a committed write failed" err="invalid header value" request="PUT \/api\/v1\/namespaces\/d\/configmaps\/a" auditID="audit-1"\n$/,
    );
  });

  it.each([[201], [200]])('falls back to plain JSON of the result with status %i when building keeps failing', async (status) => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const res = await sendCommitted(rc(['w']), stored, status, async () => {
      throw new Error('conversion failed');
    });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(stored);
  });
});
