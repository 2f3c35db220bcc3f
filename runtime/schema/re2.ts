// The RE2 patterns of CustomResourceDefinition schemas: one compile per
// pattern string shared by the CRD's validation, its translation and its
// validators (a bounded cache), and a size budget for a CRD's patterns.
// Upstream compiles them with Go's regexp and sets no limit of its own
// beyond Go's (3.3M instructions); the engine here is JavaScript and slower
// at two shapes: a literal run costs time quadratic in its length (16,000
// characters: about 0.2 s) and a counted repetition costs one instruction
// per repeat (`a{1,1000}` 56 times: about 0.15 s). Both run on the event
// loop, so a pattern longer than MAX_PATTERN_LENGTH, or patterns of one
// schema whose estimated size adds up to more than MAX_PATTERN_COST, are
// refused before they are compiled (our limits; real patterns are far
// smaller). The engine is loaded on the first compile (synchronously, its
// CommonJS build): loading it costs about 10 ms, and most starts compile no
// pattern.
import { createRequire } from 'node:module';
import type { RE2JS } from '@bufbuild/re2';

type RE2Module = typeof import('@bufbuild/re2');
let engine: RE2Module | undefined;

/** @bufbuild/re2 (loaded on the first call). */
function re2(): RE2Module {
  engine ??= createRequire(import.meta.url)('@bufbuild/re2') as RE2Module;
  return engine;
}

/** The longest pattern compiled (characters). */
export const MAX_PATTERN_LENGTH = 4096;
/** The most estimated instructions (patternCost) of the patterns of one schema. */
export const MAX_PATTERN_COST = 20_000;

const CACHE_SIZE = 512;
const cache = new Map<string, RE2JS>();

/** The pattern compiled as RE2 (throws RE2's syntax error); the same object for the same string while cached. */
export function compilePattern(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (re) {
    cache.delete(pattern);
    cache.set(pattern, re);
    return re;
  }
  re = re2().RE2JS.compile(pattern);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, re);
  return re;
}

/**
 * An upper estimate of a pattern's compiled size without compiling it: its
 * length, plus for each counted repetition `{n}`, `{n,}`, `{n,m}` the
 * count times the length of the atom it repeats (a group's text, a class
 * counts 1). Escapes and classes are skipped as units; the estimate is
 * coarse but never below what the repetition expands to.
 */
export function patternCost(pattern: string): number {
  let cost = pattern.length;
  const groupStarts: number[] = [];
  let atomStart = -1;
  let atomLen = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      atomStart = i;
      atomLen = 1;
      i++;
      continue;
    }
    if (c === '[') {
      atomStart = i;
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      atomLen = 1;
      i = j;
      continue;
    }
    if (c === '(') {
      groupStarts.push(i);
      continue;
    }
    if (c === ')') {
      const start = groupStarts.pop() ?? 0;
      atomStart = start;
      atomLen = Math.max(1, i - start - 1);
      continue;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (m && atomStart >= 0) {
        const n = Number(m[1]);
        const count = m[3] !== undefined && m[3] !== '' ? Number(m[3]) : m[2] !== undefined ? n + 1 : n;
        cost += count * atomLen;
        i += m[0].length - 1;
        continue;
      }
    }
    atomStart = i;
    atomLen = 1;
  }
  return cost;
}
