// /proc readings of this very process: present, positive, and CPU time
// grows with work done (no timing bound is asserted).

import { describe, expect, it } from 'vitest';
import { cpuMs, rssMB } from './proc.ts';

describe('proc', () => {
  it('reads the RSS of this process', () => {
    const mb = rssMB(process.pid);
    expect(mb).toBeGreaterThan(1);
    expect(mb).toBeLessThan(1e6);
  });

  it('reads CPU time that does not go backwards and grows with work', () => {
    const before = cpuMs(process.pid);
    expect(before).toBeGreaterThanOrEqual(0);
    let x = 0;
    const usage = process.cpuUsage();
    while (process.cpuUsage(usage).user < 100_000) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    expect(cpuMs(process.pid)).toBeGreaterThan(before);
  });

  it('throws for a process that does not exist', () => {
    expect(() => rssMB(2 ** 22 + 1)).toThrow();
  });
});
