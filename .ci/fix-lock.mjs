// Restores package-lock.json records of platform-specific optional
// dependencies (darwin/win32/... builds of buf, rollup, esbuild) that npm
// leaves out when the registry it can reach serves only this platform's
// builds; `npm ci` refuses a lock without them (npm/cli#4828, #8320). npm
// skips these packages on install (their os/cpu do not match), so a record
// needs only version, os, cpu and optional. Run after any `npm install`:
//   node .ci/fix-lock.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OS = new Set(['darwin', 'win32', 'linux', 'android', 'freebsd', 'openbsd', 'openharmony', 'sunos', 'netbsd', 'aix']);
const CPU = { arm64: 'arm64', aarch64: 'arm64', x64: 'x64', armv7: 'arm', arm: 'arm', ia32: 'ia32', loong64: 'loong64', ppc64: 'ppc64', riscv64: 'riscv64', s390x: 's390x', mips64el: 'mips64el' };

export function missingPlatformRecords(lock) {
  const out = [];
  for (const meta of Object.values(lock.packages)) {
    for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
      if (lock.packages[`node_modules/${dep}`]) continue;
      const parts = dep.split('/').pop().split('-');
      const os = parts.find((p) => OS.has(p));
      const cpu = parts.map((p) => CPU[p]).find(Boolean);
      if (!os || !cpu) continue; // not a platform build: npm resolves it normally
      const rec = { version, cpu: [cpu] };
      if (meta.dev) rec.dev = true;
      if (parts.includes('musl')) rec.libc = ['musl'];
      else if (parts.includes('gnu') || parts.includes('gnueabihf')) rec.libc = ['glibc'];
      rec.optional = true;
      rec.os = [os];
      out.push([`node_modules/${dep}`, rec]);
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = new URL('../package-lock.json', import.meta.url);
  const lock = JSON.parse(readFileSync(path, 'utf8'));
  const add = missingPlatformRecords(lock);
  for (const [k, v] of add) lock.packages[k] = v;
  const sorted = Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0));
  lock.packages = Object.fromEntries(sorted);
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`added ${add.length} platform records`);
}
