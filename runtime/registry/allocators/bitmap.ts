// The stored form of an allocation range, as kube-apiserver keeps it in a
// RangeAllocation's `data`: a bitmap as the bytes of a big integer, most
// significant byte first and without leading zero bytes (Go's big.Int
// Bytes()), where bit i set means offset i of the range is taken. An empty
// range is no bytes.

/** The bitmap of a set of offsets. */
export function encodeBitmap(offsets: Iterable<number>): Uint8Array {
  let max = -1;
  const list: number[] = [];
  for (const o of offsets) {
    list.push(o);
    if (o > max) max = o;
  }
  const out = new Uint8Array(max < 0 ? 0 : (max >> 3) + 1);
  for (const o of list) out[out.length - 1 - (o >> 3)] |= 1 << (o & 7);
  return out;
}

/** The offsets a bitmap holds, in ascending order (leading zero bytes are allowed). */
export function decodeBitmap(data: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = data.length - 1; i >= 0; i--) {
    const b = data[i];
    if (b === 0) continue;
    const base = (data.length - 1 - i) << 3;
    for (let bit = 0; bit < 8; bit++) if (b & (1 << bit)) out.push(base + bit);
  }
  return out;
}
