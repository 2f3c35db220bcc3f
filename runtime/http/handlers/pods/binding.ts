// POST .../pods/{name}/binding and POST .../namespaces/{ns}/bindings
// (core/v1 Binding): decodes the Binding and has registry/pods/binding.ts
// bind the pod; answers 201 with a Success Status, as upstream, in the
// negotiated form.

import type { ApiIndex } from '../../../registry/served.ts';
import { bindPod } from '../../../registry/pods/binding.ts';
import { errors } from '../../../api/errors.ts';
import type { RequestContext } from '../context.ts';
import { dryRun } from '../params.ts';
import { admittedBody } from './body.ts';
import { negotiateStatus, respondStatus } from './status.ts';

const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

export async function handleBinding(rc: RequestContext, api: ApiIndex): Promise<Response> {
  const neg = negotiateStatus(rc);
  const binding = await admittedBody(rc, { group: '', version: 'v1', kind: 'Binding' });
  const pods = api.lookup('', 'v1', 'pods')?.store;
  if (!pods) throw errors.notFoundPath();
  // the bindings collection binds the pod the Binding names; pods/binding the pod in the URL
  const name = rc.info.name || String(binding.metadata?.name ?? '');
  await bindPod(pods, rc.info.namespace, name, binding, { dryRun: dryRun(rc) });
  return respondStatus(rc, neg, { ...SUCCESS, metadata: {} });
}
