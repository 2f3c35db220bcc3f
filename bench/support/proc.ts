// What /proc says about one process (the node process itself, not a wrapper
// or its children): resident memory (VmRSS in /proc/<pid>/status) and CPU
// time used so far (utime + stime in /proc/<pid>/stat).

import { readFileSync } from 'node:fs';

/** VmRSS of pid in MB (2^20 bytes). */
export function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) pid has used, in ms; 10 ms resolution. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name, which is in parentheses and may hold spaces
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name and state
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}
