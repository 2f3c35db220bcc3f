// What the watch figures share: the servers they watch (ours, compiled, and
// with --before another checkout's, each with the `watched` namespace and no
// per-user watch limit) and the collection's current resourceVersion, from
// which the watches start.

import { join } from 'node:path';
import { oneConnection, postJSON, rawGet } from '../../support/http.ts';
import type { BenchProcess } from '../../support/process.ts';
import { spawnOurs } from '../../support/servers.ts';

export const WATCHERS = 1000;
export const COLLECTION = '/api/v1/namespaces/watched/configmaps';

/** Starts ours (and the --before checkout's server), each added to `servers` as soon as it runs, so the caller stops every one. */
export async function spawnWatched(scratch: string, beforeDir: string | undefined, servers: BenchProcess[]): Promise<{ ours: BenchProcess; before?: BenchProcess }> {
  const flags = ['--max-watches-per-user', '0'];
  const ours = await spawnOurs(join(scratch, 'data'), flags);
  servers.push(ours);
  const before = beforeDir ? await spawnOurs(join(scratch, 'before'), flags, beforeDir) : undefined;
  if (before) servers.push(before);
  for (const s of before ? [ours, before] : [ours]) await postJSON(`${s.url}/api/v1/namespaces`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'watched' } });
  return { ours, before };
}

/** The resourceVersion of a collection now (a list of one item, on a connection of its own). */
export async function currentVersion(collectionUrl: string): Promise<string> {
  const agent = oneConnection();
  try {
    const list = JSON.parse((await rawGet(`${collectionUrl}?limit=1`, agent)).body.toString()) as { metadata: { resourceVersion: string } };
    return list.metadata.resourceVersion;
  } finally {
    agent.destroy();
  }
}
