// Resident memory of one process, read from /proc/<pid>/status (VmRSS) of
// the process itself: the node process serving, not a wrapper or its children.

import { readFileSync } from 'node:fs';

/** VmRSS of pid in MB (2^20 bytes). */
export function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}
