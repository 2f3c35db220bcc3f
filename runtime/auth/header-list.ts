// An AuthRequest over a list of raw header pairs (as Node's
// IncomingMessage.rawHeaders gives them, or as a test writes them): names
// compared case-insensitively, repeated headers kept in order and never
// split on commas.

import type { AuthRequest, PeerCertificate } from './authenticator.ts';

export function authRequestFromPairs(pairs: [string, string][], path = '/', certificate?: PeerCertificate): AuthRequest {
  const byName = new Map<string, string[]>();
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const list = byName.get(key);
    if (list) list.push(value);
    else byName.set(key, [value]);
  }
  return {
    header: (name) => byName.get(name.toLowerCase())?.[0],
    headerValues: (name) => [...(byName.get(name.toLowerCase()) ?? [])],
    headerNames: () => [...byName.keys()],
    path,
    certificate,
  };
}
