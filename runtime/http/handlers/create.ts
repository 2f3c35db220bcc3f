// POST: create an object from a JSON or YAML body (201 Created).

import { readObjectBody } from '../body.ts';
import type { Obj } from '../../storage/interface.ts';
import { errors } from '../../api/errors.ts';
import { type RequestContext, negotiate, bodyProtobuf } from './context.ts';
import { dryRun } from './params.ts';
import { checkBody } from './body-check.ts';
import { fieldManagerOf, respondObject, writeHooks } from './write-common.ts';
import { validateWriteOptions } from './write-options.ts';

export async function handleCreate(rc: RequestContext): Promise<Response> {
  if (rc.info.name) throw errors.methodNotAllowed();
  negotiate(rc, false); // 406 before any work
  validateWriteOptions(rc, 'CreateOptions');
  const { value, duplicates } = await readObjectBody(rc.c, `${rc.res.def.kind} in version "${rc.res.def.version}" cannot be handled as a ${rc.res.def.kind}`, bodyProtobuf(rc));
  const obj = value as Obj;
  await checkBody(rc, obj, duplicates);
  const dry = dryRun(rc);
  const manager = fieldManagerOf(rc);
  const created = await rc.res.store.create(rc.info.namespace, obj, {
    dryRun: dry,
    warnings: rc.warnings,
    hooks: writeHooks(rc, manager, dry),
  });
  return respondObject(rc, created, 201);
}
