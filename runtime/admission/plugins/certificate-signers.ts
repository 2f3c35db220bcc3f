// Admission of CertificateSigningRequest approval and signing, authorized
// per signer (upstream's CertificateApproval and CertificateSigning
// plugins): an update through `approval` needs the `approve` verb, and an
// update through `status` that changes status.certificate needs the `sign`
// verb (conditions alone, such as a signer's Failed, need no more than the
// update, as in 1.31), on the synthetic resource
// `signers` of certificates.k8s.io named by the request's signerName (as it
// was before the update) or by that name's `<domain>/*` wildcard.

import { errors } from '../../api/errors.ts';
import type { UserInfo } from '../../auth/user.ts';
import { resourceAttributes } from '../../authz/attributes.ts';
import type { Authorizer } from '../../authz/authorizer.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';

const GROUP = 'certificates.k8s.io';
const RESOURCE = 'certificatesigningrequests';

/** The names a permission on `signerName` may be granted under: the name itself, then `<domain>/*`. */
export function signerNames(signerName: string): string[] {
  return [signerName, `${signerName.split('/')[0]}/*`];
}

/**
 * Whether `user` may `verb` (approve, sign) requests of `signerName`: the
 * exact name is asked first, then the wildcard; an authorizer that fails
 * counts as no allow.
 */
export async function authorizedForSigner(authorizer: Authorizer, user: UserInfo, verb: string, signerName: string): Promise<boolean> {
  for (const name of signerNames(signerName)) {
    try {
      const r = await authorizer.authorize(resourceAttributes(user, verb, { apiGroup: GROUP, apiVersion: '*', resource: 'signers', name }));
      if (r.decision === 'allow') return true;
    } catch {
      // as an error answer: ask the next form
    }
  }
  return false;
}

const isCSRUpdate = (a: AdmissionAttributes, subresource: string) => a.group === GROUP && a.resource === RESOURCE && a.subresource === subresource && a.operation === 'UPDATE' && !!a.oldObject;

const signerOf = (old: Obj): string => (typeof old.spec?.signerName === 'string' ? old.spec.signerName : '');

function refuse(a: AdmissionAttributes, verb: string, signerName: string): never {
  const name = a.name || a.oldObject?.metadata?.name || '';
  throw errors.forbidden({ group: GROUP, resource: RESOURCE }, name, `user not permitted to ${verb} requests with signerName "${signerName}"`);
}

/** CertificateApproval: approving or denying needs `approve` on the signer (checked against the old object's signerName). */
export function certificateApprovalPlugin(authorizer: Authorizer): AdmissionPlugin {
  return {
    name: 'CertificateApproval',
    handles: (a) => isCSRUpdate(a, 'approval'),
    async validate(a) {
      if (!isCSRUpdate(a, 'approval')) return;
      const signer = signerOf(a.oldObject!);
      if (!(await authorizedForSigner(authorizer, a.user, 'approve', signer))) refuse(a, 'approve', signer);
    },
  };
}

const certificateOf = (o: Obj | null): unknown => o?.status?.certificate ?? '';

/** CertificateSigning: a status update that changes the certificate needs `sign` on the signer. */
export function certificateSigningPlugin(authorizer: Authorizer): AdmissionPlugin {
  return {
    name: 'CertificateSigning',
    handles: (a) => isCSRUpdate(a, 'status'),
    async validate(a) {
      if (!isCSRUpdate(a, 'status') || !a.object) return;
      if (certificateOf(a.oldObject) === certificateOf(a.object)) return;
      const signer = signerOf(a.oldObject!);
      if (!(await authorizedForSigner(authorizer, a.user, 'sign', signer))) refuse(a, 'sign', signer);
    },
  };
}
