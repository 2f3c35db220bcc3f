// The PodSecurity admission plugin of kube-apiserver: a validating plugin
// for creates and updates of namespaces, pods and the pod-template
// resources (admission.ts decides). Its warnings go to the request's
// Warning headers, its audit annotations onto the attributes (prefixed
// pod-security.kubernetes.io/), its refusal is thrown. Namespaces and pods
// are read from the server's stores.

import type { ApiIndex } from '../../../registry/served.ts';
import { apiNamespaceSource } from '../../matching/selectors.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../../chain.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type Options, type Sources, PodSecurityAdmission } from './admission.ts';

const applies = (attrs: AdmissionAttributes): attrs is AdmissionAttributes & { operation: 'CREATE' | 'UPDATE'; object: Obj } =>
  (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE') && !!attrs.object && PodSecurityAdmission.handles(attrs.group, attrs.resource);

export function podSecuritySources(api: ApiIndex): Sources {
  const namespaces = apiNamespaceSource(api);
  return {
    namespace: (name) => namespaces.get(name),
    async pods(namespace) {
      const store = api.lookup('', 'v1', 'pods')?.store;
      return store ? (await store.list(namespace, {})).items : [];
    },
  };
}

export function podSecurityPlugin(sources: Sources, opts: Options = {}): AdmissionPlugin {
  const psa = new PodSecurityAdmission(sources, opts);
  return {
    name: 'PodSecurity',
    handles: applies,
    async validate(attrs) {
      if (!applies(attrs)) return;
      const res = await psa.validate({
        operation: attrs.operation,
        group: attrs.group,
        resource: attrs.resource,
        subresource: attrs.subresource,
        namespace: attrs.namespace,
        name: attrs.name,
        object: attrs.object,
        oldObject: attrs.oldObject,
        username: attrs.user?.name,
      });
      if (Object.keys(res.auditAnnotations).length) Object.assign((attrs.auditAnnotations ??= {}), res.auditAnnotations);
      for (const w of res.warnings) attrs.warnings?.push(w);
      if (res.error) throw res.error;
    },
  };
}
