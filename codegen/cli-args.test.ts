import { describe, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { parseArgs } from './cli-args.ts';

const root = resolve(import.meta.dirname, '..');

describe('parseArgs', () => {
  it.each([
    [[], { specs: join(root, 'api-specs'), out: join(root, 'generated') }],
    [['--specs', 's', '--out', 'o'], { specs: '/w/s', out: '/w/o' }],
    [['--specs=/abs/s', '--out=o'], { specs: '/abs/s', out: '/w/o' }],
  ])('%j', (argv, want) => expect(parseArgs(argv, '/w')).toEqual(want));

  it.each([[['--specs']], [['--out', '--specs']], [['--bogus']], [['extra']]])('rejects %j', (argv) => {
    expect(() => parseArgs(argv, '/w')).toThrow();
  });
});
