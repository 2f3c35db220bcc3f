// In-memory allocators for service cluster IPs (one per CIDR; the network
// address and, for IPv4, the broadcast address are never handed out) and
// node ports (a numeric range). Allocation is synchronous so concurrent
// requests in one process cannot race. Each is a range of offsets that can
// be read out and replaced (`offsets`, `resetTo`): the state kept in storage
// is that set (stored-range.ts), and this object its cache.

import { type CIDR, type IPFamily, type ParsedIP, cidrContains, formatIP, parseCIDR, parseIP } from './ip.ts';

/** Why a specific value cannot be allocated; the text is upstream's. */
export class AllocationError extends Error {
  constructor(
    message: string,
    readonly kind: 'range' | 'allocated' | 'full',
  ) {
    super(message);
  }
}

/**
 * The static band at the bottom of a range (kube-apiserver's
 * ServiceIPStaticSubrange / ServiceNodePortStaticSubrange): random allocation
 * takes from above it first and enters it only when the rest is full, so
 * values users request there rarely collide with allocated ones. Its size is
 * size/step clamped to [min, max]; 0 for ranges smaller than min.
 */
export function staticBand(size: number, min: number, max: number, step: number): number {
  if (size < min) return 0;
  return Math.min(max, Math.max(min, Math.floor(size / step)));
}

/** Scans offsets [0, count): the dynamic band from a random start, then the static band. */
function* dynamicFirst(count: number, band: number): Generator<number> {
  const upper = count - band;
  if (upper > 0) {
    const start = Math.floor(Math.random() * upper);
    for (let i = 0; i < upper; i++) yield band + ((start + i) % upper);
  }
  for (let i = 0; i < Math.min(band, count); i++) yield i;
}

/** What a stored range (stored-range.ts) needs of an allocator: its range's text and its taken offsets. */
export interface RangeState {
  /** The range as a RangeAllocation names it (`10.0.0.0/24`, `30000-32767`). */
  readonly rangeText: string;
  /** Offsets of the taken values (0: the first usable value). */
  offsets(): Iterable<number>;
  /** Replaces what is taken by these offsets (those outside the range are dropped). */
  resetTo(offsets: Iterable<number>): void;
  /** A copy to try a write on without touching this one (dry runs). */
  clone(): this;
}

/** kube-apiserver's limit on a service IP range without MultiCIDRServiceAllocator: 2^20 addresses. */
const MAX_CIDR_BITS = 20;

export class IPAllocator implements RangeState {
  readonly cidr: CIDR;
  readonly family: IPFamily;
  private readonly used = new Set<bigint>();
  private readonly first: bigint;
  private readonly count: bigint;

  constructor(cidrText: string, flag = '--service-cluster-ip-range') {
    this.cidr = parseCIDR(cidrText);
    this.family = this.cidr.family;
    const width = this.family === 'IPv4' ? 32 : 128;
    if (width - this.cidr.prefix > MAX_CIDR_BITS) {
      throw new Error(`specified ${flag} is too large; for ${width}-bit addresses, the mask must be >= ${width - MAX_CIDR_BITS}`);
    }
    // reserve the network address; IPv4 also reserves broadcast
    const reserved = this.family === 'IPv4' ? 2n : 1n;
    this.first = this.cidr.base + 1n;
    this.count = this.cidr.size > reserved ? this.cidr.size - reserved : 0n;
  }

  private inRange(ip: ParsedIP): boolean {
    return cidrContains(this.cidr, ip) && ip.value >= this.first && ip.value < this.first + this.count;
  }

  contains(text: string): boolean {
    const ip = parseIP(text);
    return !!ip && this.inRange(ip);
  }

  /** Reserves one address; throws AllocationError when out of range or taken. */
  allocate(text: string): string {
    const ip = parseIP(text);
    if (!ip || !this.inRange(ip)) {
      throw new AllocationError(`the provided IP (${text}) is not in the valid range. The range of valid IPs is ${this.cidr.text}`, 'range');
    }
    if (this.used.has(ip.value)) throw new AllocationError('provided IP is already allocated', 'allocated');
    this.used.add(ip.value);
    return formatIP(ip);
  }

  /** Reserves a free address: a random one above the static band, else one in it. */
  allocateNext(): string {
    if (BigInt(this.used.size) >= this.count) throw new AllocationError('range is full', 'full');
    // large (IPv6) ranges are scanned within their first 2^20 addresses
    const span = Number(this.count > 1n << 20n ? 1n << 20n : this.count);
    for (const off of dynamicFirst(span, staticBand(span, 16, 256, 16))) {
      const v = this.first + BigInt(off);
      if (!this.used.has(v)) {
        this.used.add(v);
        return formatIP({ family: this.family, value: v });
      }
    }
    throw new AllocationError('range is full', 'full');
  }

  release(text: string): void {
    const ip = parseIP(text);
    if (ip && ip.family === this.family) this.used.delete(ip.value);
  }

  has(text: string): boolean {
    const ip = parseIP(text);
    return !!ip && this.used.has(ip.value);
  }

  get rangeText(): string {
    return this.cidr.text;
  }

  /** The offset of an address in the range (contains() must hold). */
  offsetOf(text: string): number {
    return Number(parseIP(text)!.value - this.first);
  }

  *offsets(): Iterable<number> {
    for (const v of this.used) yield Number(v - this.first);
  }

  resetTo(offsets: Iterable<number>): void {
    this.used.clear();
    for (const o of offsets) if (o >= 0 && BigInt(o) < this.count) this.used.add(this.first + BigInt(o));
  }

  clone(): this {
    const c = Object.create(IPAllocator.prototype) as this;
    Object.assign(c, this, { used: new Set(this.used) });
    return c;
  }

  /** The n-th usable address (the `kubernetes` Service takes the first). */
  nth(n: number): string {
    return formatIP({ family: this.family, value: this.first + BigInt(n) });
  }

  get allocated(): number {
    return this.used.size;
  }
}

export class PortAllocator implements RangeState {
  readonly base: number;
  readonly size: number;
  private readonly used = new Set<number>();

  constructor(rangeText: string) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(rangeText);
    if (!m) throw new Error(`invalid port range: ${rangeText}`);
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (lo < 1 || hi > 65535 || hi < lo) throw new Error(`invalid port range: ${rangeText}`);
    this.base = lo;
    this.size = hi - lo + 1;
  }

  get text(): string {
    return `${this.base}-${this.base + this.size - 1}`;
  }

  get rangeText(): string {
    return this.text;
  }

  *offsets(): Iterable<number> {
    for (const p of this.used) yield p - this.base;
  }

  resetTo(offsets: Iterable<number>): void {
    this.used.clear();
    for (const o of offsets) if (o >= 0 && o < this.size) this.used.add(this.base + o);
  }

  clone(): this {
    const c = Object.create(PortAllocator.prototype) as this;
    Object.assign(c, this, { used: new Set(this.used) });
    return c;
  }

  contains(port: number): boolean {
    return Number.isInteger(port) && port >= this.base && port < this.base + this.size;
  }

  allocate(port: number): number {
    if (!this.contains(port)) {
      throw new AllocationError(`provided port is not in the valid range. The range of valid ports is ${this.text}`, 'range');
    }
    if (this.used.has(port)) throw new AllocationError('provided port is already allocated', 'allocated');
    this.used.add(port);
    return port;
  }

  /** Reserves a free port: a random one above the static band, else one in it. */
  allocateNext(): number {
    if (this.used.size >= this.size) throw new AllocationError('range is full', 'full');
    for (const off of dynamicFirst(this.size, staticBand(this.size, 16, 128, 32))) {
      const p = this.base + off;
      if (!this.used.has(p)) {
        this.used.add(p);
        return p;
      }
    }
    throw new AllocationError('range is full', 'full');
  }

  release(port: number): void {
    this.used.delete(port);
  }

  has(port: number): boolean {
    return this.used.has(port);
  }

  get allocated(): number {
    return this.used.size;
  }
}
