// Makes PKCS#10 certificate requests for tests: an ECDSA P-256 key and a
// request for a subject (CN, O values) and subject alternative names, as
// PEM, written with the DER writers of runtime/auth/pki/der.ts and signed
// with node:crypto. `tamper` signs other bytes than the request's, so that
// its signature does not verify.

import { generateKeyPairSync, sign } from 'node:crypto';
import { isIP } from 'node:net';
import { bitString, implicit, octetString, oid, sequence, set, smallInteger, tlv, utf8String } from '../../runtime/auth/pki/der.ts';

export interface CSROptions {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ips?: string[];
  emails?: string[];
  tamper?: boolean;
}

export interface MadeCSR {
  csrPEM: string;
  keyPEM: string;
  /** base64 of the PEM, as spec.request carries it. */
  request: string;
}

function ipv4(ip: string): Buffer {
  return Buffer.from(ip.split('.').map(Number));
}

export function makeCSR(o: CSROptions): MadeCSR {
  const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rdn = (type: string, value: string) => set(sequence(oid(type), utf8String(value)));
  const subject = sequence(...(o.organizations ?? []).map((v) => rdn('2.5.4.10', v)), rdn('2.5.4.3', o.commonName));
  const names = [
    ...(o.dnsNames ?? []).map((n) => implicit(2, Buffer.from(n, 'ascii'))),
    ...(o.emails ?? []).map((n) => implicit(1, Buffer.from(n, 'ascii'))),
    ...(o.ips ?? []).filter((ip) => isIP(ip) === 4).map((ip) => implicit(7, ipv4(ip))),
  ];
  const attrs = names.length ? [sequence(oid('1.2.840.113549.1.9.14'), set(sequence(sequence(oid('2.5.29.17'), octetString(sequence(...names))))))] : [];
  const info = sequence(smallInteger(0), subject, keys.publicKey.export({ format: 'der', type: 'spki' }), tlv(0xa0, Buffer.concat(attrs)));
  const signature = sign('sha256', o.tamper ? Buffer.concat([info, Buffer.from('x')]) : info, keys.privateKey);
  const der = sequence(info, sequence(oid('1.2.840.10045.4.3.2')), bitString(signature));
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  const csrPEM = `-----BEGIN CERTIFICATE REQUEST-----\n${b64}${b64.endsWith('\n') ? '' : '\n'}-----END CERTIFICATE REQUEST-----\n`;
  return { csrPEM, keyPEM: keys.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), request: Buffer.from(csrPEM).toString('base64') };
}
