// DefaultIngressClass admission, as kube-apiserver's plugin of that name:
// an Ingress created without spec.ingressClassName and without the
// kubernetes.io/ingress.class annotation gets the default IngressClass's
// name: the class annotated ingressclass.kubernetes.io/is-default-class
// "true"; with several, the newest (1.28 on). With none, it is unchanged.

import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';
import { type ClusterObjects, newestDefault } from './cluster-objects.ts';
import { isObj, objectField } from './fields.ts';

const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const IS_DEFAULT = 'ingressclass.kubernetes.io/is-default-class';

const ingressCreate = (attrs: AdmissionAttributes): boolean => attrs.operation === 'CREATE' && attrs.group === 'networking.k8s.io' && attrs.resource === 'ingresses' && attrs.subresource === '';

export function defaultIngressClassPlugin(classes: ClusterObjects): AdmissionPlugin {
  return {
    name: 'DefaultIngressClass',
    handles: ingressCreate,
    async admit(attrs) {
      if (!ingressCreate(attrs)) return;
      const ingress = attrs.object;
      if (!isObj(ingress)) return;
      const spec = objectField(ingress, 'spec');
      if (!spec || spec.ingressClassName != null) return;
      const ann = ingress.metadata?.annotations;
      if (isObj(ann) && INGRESS_CLASS_ANNOTATION in ann) return;
      const def = newestDefault(await classes.list(), (c) => c.metadata?.annotations?.[IS_DEFAULT] === 'true');
      if (def) spec.ingressClassName = def.metadata?.name;
    },
  };
}
