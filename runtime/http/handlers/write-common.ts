// Shared by the write handlers: the field manager's name, the hooks that
// record managed fields and run admission inside the registry's write
// pipeline, and the write response (which, once the write is stored, is
// always a success).

import { managerFromUserAgent } from '../../apply/index.ts';
import { type WriteHooks, pipelineHooks } from '../../registry/write-services.ts';
import type { Obj } from '../../storage/interface.ts';
import { MEDIA_JSON } from '../../api/k8s-names.ts';
import { transformObject } from '../respond.ts';
import { type RequestContext, negotiate, sendNegotiated } from './context.ts';
import { includeObject } from './params.ts';
import { withVersion } from './get.ts';
import { requestHeader } from '../request-headers.ts';
import { serverLogger } from '../../logging/logger.ts';
import { isPromise } from '../../api/maybe.ts';

/**
 * The manager named by ?fieldManager, else the User-Agent's product (the
 * part before '/'); its checks are the write options' (write-options.ts).
 */
export function fieldManagerOf(rc: RequestContext): string {
  const m = rc.query.get('fieldManager');
  if (m !== null && m !== '') return m;
  return managerFromUserAgent(requestHeader(rc.c, 'user-agent') ?? '');
}

/**
 * The request's stages of the registry's write pipeline: field ownership and
 * the two halves of admission (told CREATE, UPDATE or DELETE by what the
 * pipeline does: a PUT or apply that creates is a CREATE).
 */
export function writeHooks(rc: RequestContext, manager: string, dryRun: boolean, opts: { subresource?: string; name?: string; options?: Obj } = {}): WriteHooks {
  return pipelineHooks(rc.services, rc.res, {
    user: rc.user,
    manager,
    namespace: rc.info.namespace,
    name: opts.name ?? rc.info.name,
    dryRun,
    subresource: opts.subresource,
    warnings: rc.warnings,
    auditAnnotations: rc.record.annotations,
    deadline: rc.deadline,
    options: opts.options ?? writeOptionFields(rc),
  });
}

/**
 * The write options the client sent in the query, as admission is told them
 * in CreateOptions or UpdateOptions (a patch's PatchOptions become those, as
 * upstream converts them; `force` has no place there).
 */
function writeOptionFields(rc: RequestContext): Obj {
  const o: Obj = {};
  const dryRun = rc.query.getAll('dryRun');
  if (dryRun.length) o.dryRun = dryRun;
  const manager = rc.query.get('fieldManager');
  if (manager) o.fieldManager = manager;
  const validation = rc.query.get('fieldValidation');
  if (validation) o.fieldValidation = validation;
  return o;
}

/** The answer to a write: the object in the request's version (a failed conversion is the answer's error, as upstream). */
export async function respondObject(rc: RequestContext, stored: Obj, status: number): Promise<Response> {
  const inVersion = withVersion(stored, rc);
  const obj = isPromise(inVersion) ? await inVersion : inVersion;
  return sendCommitted(rc, obj, status, () => {
    const neg = negotiate(rc, false);
    const body = transformObject(obj, neg, { def: rc.res.def, includeObject: includeObject(rc, neg), formatters: rc.services.formatters, cellsFrom: rc.res.store.tableSource(rc.res.def) });
    return sendNegotiated(rc, neg, body, status);
  });
}

/**
 * The answer to a write that is already stored: whatever fails while it is
 * built (a conversion, an encoding, a header) must not turn the success into
 * an error. The failure is logged; the response is built again without
 * warnings, and as a last resort the result is sent as plain JSON.
 */
export async function sendCommitted(rc: RequestContext, result: unknown, status: number, build: () => Promise<Response>): Promise<Response> {
  const where = `${rc.c.req.method} ${rc.info.path}`;
  try {
    return await build();
  } catch (err) {
    serverLogger().errorS(err, 'Response of a committed write failed', 'request', where, 'auditID', rc.record.auditID);
  }
  if (rc.warnings.length) {
    rc.warnings.length = 0;
    try {
      return await build();
    } catch (err) {
      serverLogger().errorS(err, 'Response of a committed write failed again without warnings', 'request', where, 'auditID', rc.record.auditID);
    }
  }
  let text: string;
  try {
    text = `${JSON.stringify(result)}\n`;
  } catch {
    text = `${JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: status })}\n`;
  }
  return new Response(text, { status, headers: { 'Content-Type': MEDIA_JSON, 'Cache-Control': 'no-cache, private' } });
}
