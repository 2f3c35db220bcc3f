// jose (JWS signing and verification), imported on first use: a server whose
// clients never present or ask for a token does not load it at start-up.

let mod: Promise<typeof import('jose')> | undefined;

export function jose(): Promise<typeof import('jose')> {
  return (mod ??= import('jose'));
}
