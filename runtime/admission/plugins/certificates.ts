// Admission for CertificateSigningRequests: on create, spec.username, uid,
// groups and extra become the requesting user's whatever the request said
// (upstream's strategy sets them from the request's user: here the step runs
// as the first mutating admission, before the strategy), and upstream's
// CertificateSubjectRestriction plugin refuses a request to the
// kube-apiserver-client signer for a subject in system:masters (403); that
// half is off when --disable-admission-plugins names it.

import { errors } from '../../api/errors.ts';
import { GROUP_MASTERS } from '../../api/k8s-names.ts';
import { parseCertificateRequest } from '../../auth/pki/csr.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';

const GROUP = 'certificates.k8s.io';
const RESOURCE = 'certificatesigningrequests';
const KUBE_APISERVER_CLIENT = 'kubernetes.io/kube-apiserver-client';

const isCSRCreate = (a: AdmissionAttributes) => a.group === GROUP && a.resource === RESOURCE && a.subresource === '' && a.operation === 'CREATE' && !!a.object;

/** The requester's identity written into a new request's spec. */
export function setRequester(obj: Obj, user: AdmissionAttributes['user']): void {
  const spec = (obj.spec ??= {});
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  if (user.name) spec.username = user.name;
  if (user.uid) spec.uid = user.uid;
  if (user.groups.length) spec.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) spec.extra = structuredClone(user.extra);
}

/** The subject organizations of the request, or undefined when it does not parse (validation reports that). */
function requestOrganizations(request: unknown): string[] | undefined {
  if (typeof request !== 'string') return undefined;
  try {
    return parseCertificateRequest(Buffer.from(request, 'base64').toString('latin1')).organizations;
  } catch {
    return undefined;
  }
}

export function certificateRequestPlugin(opts: { subjectRestriction: boolean } = { subjectRestriction: true }): AdmissionPlugin {
  return {
    name: 'CertificateSigningRequest',
    admit(a) {
      if (isCSRCreate(a)) setRequester(a.object!, a.user);
    },
    validate(a) {
      if (!opts.subjectRestriction || !isCSRCreate(a)) return;
      const spec: Obj = a.object!.spec ?? {};
      if (spec.signerName !== KUBE_APISERVER_CLIENT) return;
      if (!requestOrganizations(spec.request)?.includes(GROUP_MASTERS)) return;
      const name = a.name || a.object!.metadata?.name || 'Unknown';
      throw errors.forbidden({ group: GROUP, resource: RESOURCE }, name, `use of ${KUBE_APISERVER_CLIENT} signer with ${GROUP_MASTERS} group is not allowed`);
    },
  };
}
