import { describe, expect, it } from 'vitest';
import { AllocationError, IPAllocator, PortAllocator, staticBand } from './range.ts';

describe('IPAllocator', () => {
  it('hands out every usable address once, never network or broadcast', () => {
    const a = new IPAllocator('192.168.0.0/29');
    const got = new Set<string>();
    for (let i = 0; i < 6; i++) got.add(a.allocateNext());
    expect([...got].sort()).toEqual(['192.168.0.1', '192.168.0.2', '192.168.0.3', '192.168.0.4', '192.168.0.5', '192.168.0.6']);
    expect(() => a.allocateNext()).toThrow(AllocationError);
    a.release('192.168.0.3');
    expect(a.allocateNext()).toBe('192.168.0.3');
  });

  it.each([
    ['10.0.0.0', 'range'],
    ['10.0.0.255', 'range'],
    ['10.0.1.1', 'range'],
    ['fd00::1', 'range'],
  ])('refuses %s (%s)', (ip, kind) => {
    const a = new IPAllocator('10.0.0.0/24');
    try {
      a.allocate(ip);
      expect.unreachable();
    } catch (e) {
      expect((e as AllocationError).kind).toBe(kind);
      expect((e as Error).message).toContain('The range of valid IPs is 10.0.0.0/24');
    }
  });

  it('refuses a taken address and canonicalises IPv6', () => {
    const a = new IPAllocator('fd00::/120');
    expect(a.allocate('FD00:0::0A')).toBe('fd00::a');
    expect(() => a.allocate('fd00::a')).toThrow('provided IP is already allocated');
    expect(a.nth(0)).toBe('fd00::1');
  });
});

describe('PortAllocator', () => {
  it('allocates within the range, refuses outside and taken', () => {
    const p = new PortAllocator('30000-30002');
    expect(p.allocate(30001)).toBe(30001);
    expect(() => p.allocate(30001)).toThrow('provided port is already allocated');
    expect(() => p.allocate(29999)).toThrow('provided port is not in the valid range. The range of valid ports is 30000-30002');
    const rest = [p.allocateNext(), p.allocateNext()].sort();
    expect(rest).toEqual([30000, 30002]);
    expect(() => p.allocateNext()).toThrow(AllocationError);
  });
  it.each(['', 'a-b', '0-10', '10-5', '1-70000'])('rejects range %j', (r) => {
    expect(() => new PortAllocator(r)).toThrow();
  });
});

describe('static band (ServiceIPStaticSubrange, ServiceNodePortStaticSubrange)', () => {
  it.each([
    [8, 16, 256, 16, 0],
    [16, 16, 256, 16, 16],
    [254, 16, 256, 16, 16],
    [1024, 16, 256, 16, 64],
    [1 << 20, 16, 256, 16, 256],
    [2768, 16, 128, 32, 86],
    [100, 16, 128, 32, 16],
    [10, 16, 128, 32, 0],
  ])('size %d -> band %d..', (size, min, max, step, want) => {
    expect(staticBand(size, min, max, step)).toBe(want);
  });
  it('random allocation stays above the band until the rest is full', () => {
    const a = new IPAllocator('10.0.0.0/24'); // 254 usable, band 16: 10.0.0.1 - 10.0.0.16
    const got = Array.from({ length: 238 }, () => a.allocateNext());
    const lastOctet = (ip: string) => Number(ip.split('.')[3]);
    expect(got.every((ip) => lastOctet(ip) > 16)).toBe(true);
    expect(lastOctet(a.allocateNext())).toBeLessThanOrEqual(16);
  });
  it('node ports likewise', () => {
    const p = new PortAllocator('30000-30099'); // 100 ports, band 16
    const got = Array.from({ length: 84 }, () => p.allocateNext());
    expect(got.every((x) => x >= 30016)).toBe(true);
    expect(p.allocateNext()).toBeLessThan(30016);
  });
});
