// Tests of the token file's CSV reader: Go encoding/csv's quoting, blank lines, line numbers and error texts.

import { describe, expect, it } from 'vitest';
import { parseCsv, CsvError } from './csv.ts';

describe('parseCsv', () => {
  const ok: [string, string, { fields: string[]; line: number }[]][] = [
    [
      'plain rows',
      'a,b,c\nd,e\n',
      [
        { fields: ['a', 'b', 'c'], line: 1 },
        { fields: ['d', 'e'], line: 2 },
      ],
    ],
    ['no final newline', 'a,b', [{ fields: ['a', 'b'], line: 1 }]],
    [
      'CRLF',
      'a,b\r\nc,d\r\n',
      [
        { fields: ['a', 'b'], line: 1 },
        { fields: ['c', 'd'], line: 2 },
      ],
    ],
    [
      'blank lines skipped, line numbers kept',
      '\n\na,b\n\nc\n',
      [
        { fields: ['a', 'b'], line: 3 },
        { fields: ['c'], line: 5 },
      ],
    ],
    ['quoted field with commas', 't,u,1,"g1,g2"', [{ fields: ['t', 'u', '1', 'g1,g2'], line: 1 }]],
    ['doubled quote', '"a""b",c', [{ fields: ['a"b', 'c'], line: 1 }]],
    [
      'quoted field spanning lines',
      '"a\nb",c\nd',
      [
        { fields: ['a\nb', 'c'], line: 1 },
        { fields: ['d'], line: 3 },
      ],
    ],
    ['empty fields', ',,', [{ fields: ['', '', ''], line: 1 }]],
    ['spaces are kept', ' a , b', [{ fields: [' a ', ' b'], line: 1 }]],
    ['empty quoted field', '"",x', [{ fields: ['', 'x'], line: 1 }]],
  ];
  it.each(ok)('%s', (_name, text, want) => {
    expect(parseCsv(text)).toEqual(want);
  });

  const bad: [string, string, string, number][] = [
    ['bare quote', 'a,b"c', 'parse error on line 1, column 4: bare " in non-quoted-field', 1],
    ['unterminated quote', 'x\n"abc', 'parse error on line 2, column 5: extraneous or missing " in quoted-field', 2],
    ['text after closing quote', '"a"b,c', 'parse error on line 1, column 4: extraneous or missing " in quoted-field', 1],
    ['multi-line record', '"a\nb"x', 'record on line 1; parse error on line 2, column 3: extraneous or missing " in quoted-field', 2],
  ];
  it.each(bad)('%s', (_name, text, message, line) => {
    let caught: unknown;
    try {
      parseCsv(text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CsvError);
    expect((caught as CsvError).message).toBe(message);
    expect((caught as CsvError).line).toBe(line);
  });
});
