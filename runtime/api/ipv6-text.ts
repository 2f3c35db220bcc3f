// The text form of an IPv6 address from its eight 16-bit groups, as Go's
// net/netip prints it (RFC 5952): lower-case hex without leading zeros, and
// the longest run of two or more zero groups (the first on a tie) written
// `::`. The one copy, shared by the Service IP allocator and CEL's ip library.

export function ipv6Text(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}
