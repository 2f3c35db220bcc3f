// Verifies a detached JWS (`header..signature`, the form of cluster-info's
// jws-kubeconfig-<id> entries) independently of the server's signer: the
// payload is put back in and jose checks the HS256 signature with the key.
import { compactVerify } from 'jose';

export async function verifyDetachedHS256(jws: string, content: string, key: string): Promise<boolean> {
  const [header, empty, signature] = jws.split('.');
  if (empty !== '' || !header || !signature) return false;
  try {
    const { payload, protectedHeader } = await compactVerify(`${header}.${Buffer.from(content).toString('base64url')}.${signature}`, Buffer.from(key));
    return protectedHeader.alg === 'HS256' && Buffer.from(payload).toString() === content;
  } catch {
    return false;
  }
}
