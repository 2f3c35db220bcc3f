// Admission of the connect subresources (pods/exec, attach, portforward and
// the proxies of pods, services and nodes): kube-apiserver's connect handler
// builds the subresource's options object from the query (PodExecOptions,
// PodProxyOptions...) and runs both admission halves on it with the CONNECT
// operation, before the connecter looks the object up. pods/log is a read,
// not a connect: it gets no admission.

import type { AdmissionAttributes } from '../../admission/chain.ts';
import type { Obj } from '../../storage/interface.ts';
import { boolParam, parseInt64 } from './params.ts';
import type { RequestContext } from './context.ts';

/** The options kind of each connect subresource, by resource and subresource. */
const OPTIONS_KIND: Record<string, string> = {
  'pods/exec': 'PodExecOptions',
  'pods/attach': 'PodAttachOptions',
  'pods/portforward': 'PodPortForwardOptions',
  'pods/proxy': 'PodProxyOptions',
  'services/proxy': 'ServiceProxyOptions',
  'nodes/proxy': 'NodeProxyOptions',
};

/** The kinds of the objects the connect subresources belong to (the attributes' kind, as upstream's scope). */
const PARENT_KIND: Record<string, string> = { pods: 'Pod', services: 'Service', nodes: 'Node' };

function setBool(rc: RequestContext, o: Obj, name: string): void {
  const v = boolParam(rc, name);
  if (v !== undefined) o[name] = v;
}

/** The options object upstream decodes from the query for this subresource (undefined: not a connect subresource). */
export function connectOptions(rc: RequestContext, forwardedPath: string): Obj | undefined {
  const kind = OPTIONS_KIND[`${rc.info.resource}/${rc.info.subresource}`];
  if (!kind) return undefined;
  const o: Obj = { kind, apiVersion: 'v1' };
  if (kind === 'PodExecOptions' || kind === 'PodAttachOptions') {
    for (const b of ['stdin', 'stdout', 'stderr', 'tty']) setBool(rc, o, b);
    const container = rc.query.get('container');
    if (container) o.container = container;
    if (kind === 'PodExecOptions') {
      const command = rc.query.getAll('command');
      if (command.length) o.command = command;
    }
  } else if (kind === 'PodPortForwardOptions') {
    const ports = rc.query.getAll('ports');
    if (ports.length) o.ports = ports.map((p) => Number(parseInt64(p)));
  } else if (forwardedPath) {
    o.path = forwardedPath;
  }
  return o;
}

/** Runs the mutating, then the validating half of admission on a connect request (throws the refusal). */
export async function admitConnect(rc: RequestContext, forwardedPath = ''): Promise<void> {
  const object = connectOptions(rc, forwardedPath);
  if (!object) return;
  const attrs: AdmissionAttributes = {
    operation: 'CONNECT',
    group: '',
    version: 'v1',
    kind: PARENT_KIND[rc.info.resource] ?? rc.res.def.kind,
    resource: rc.info.resource,
    subresource: rc.info.subresource,
    namespace: rc.info.namespace,
    name: rc.info.name,
    object,
    oldObject: null,
    dryRun: false,
    user: rc.user,
  };
  await rc.services.admission.admit(attrs);
  await rc.services.admission.validate(attrs);
}
