// PUT: replace an object (200), or create it where the kind allows (201);
// also PUT on the status subresource. A stale resourceVersion is 409.

import { readObjectBody } from '../body.ts';
import type { Obj } from '../../storage/interface.ts';
import { type RequestContext, bodyProtobuf, groupVersion, negotiate } from './context.ts';
import { dryRun } from './params.ts';
import { checkBody } from './body-check.ts';
import { fieldManagerOf, respondObject, writeHooks } from './write-common.ts';
import { validateWriteOptions } from './write-options.ts';

export async function handleUpdate(rc: RequestContext): Promise<Response> {
  const { def } = rc.res;
  negotiate(rc, false); // 406 before any work
  validateWriteOptions(rc, 'UpdateOptions');
  const { value, duplicates } = await readObjectBody(rc.c, `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}`, bodyProtobuf(rc));
  const obj = value as Obj;
  await checkBody(rc, obj, duplicates);
  const dry = dryRun(rc);
  const manager = fieldManagerOf(rc);
  const sub = rc.info.subresource || undefined;
  const { obj: out, created } = await rc.res.store.update(rc.info.namespace, rc.info.name, () => obj, {
    dryRun: dry,
    subresource: sub,
    createIfMissing: !sub,
    version: groupVersion(rc),
    warnings: rc.warnings,
    hooks: writeHooks(rc, manager, dry, { subresource: sub }),
  });
  return respondObject(rc, out, created ? 201 : 200);
}
