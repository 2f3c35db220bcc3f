// A CSV reader with the rules of Go's encoding/csv as kube-apiserver reads
// its token file: comma-separated fields, double-quoted fields (with `""`
// for a quote, spanning lines), blank lines skipped, CRLF accepted, a
// variable number of fields per record. Each record keeps the line it
// started on; malformed quoting is a CsvError with Go's text.

export interface CsvRecord {
  fields: string[];
  /** 1-based line the record starts on. */
  line: number;
}

export class CsvError extends Error {
  readonly line: number;
  constructor(startLine: number, line: number, column: number, what: string) {
    const where = startLine !== line ? `record on line ${startLine}; parse error on line ${line}, column ${column}` : `parse error on line ${line}, column ${column}`;
    super(`${where}: ${what}`);
    this.line = line;
  }
}

const BARE_QUOTE = 'bare " in non-quoted-field';
const QUOTE = 'extraneous or missing " in quoted-field';

export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const src = text.replace(/\r\n/g, '\n');
  let i = 0;
  let line = 1;
  while (i < src.length) {
    if (src[i] === '\n') {
      line++;
      i++;
      continue;
    }
    const startLine = line;
    const fields: string[] = [];
    let lineStart = i;
    for (;;) {
      if (src[i] === '"') {
        // Quoted field.
        let value = '';
        i++;
        for (;;) {
          if (i >= src.length) throw new CsvError(startLine, line, i - lineStart + 1, QUOTE);
          const c = src[i];
          if (c === '"') {
            if (src[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (c === '\n') {
            line++;
            lineStart = i + 1;
          }
          value += c;
          i++;
        }
        fields.push(value);
        if (i < src.length && src[i] !== ',' && src[i] !== '\n') throw new CsvError(startLine, line, i - lineStart + 1, QUOTE);
      } else {
        let end = i;
        while (end < src.length && src[end] !== ',' && src[end] !== '\n') {
          if (src[end] === '"') throw new CsvError(startLine, line, end - lineStart + 1, BARE_QUOTE);
          end++;
        }
        fields.push(src.slice(i, end));
        i = end;
      }
      if (i < src.length && src[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    records.push({ fields, line: startLine });
    if (i < src.length && src[i] === '\n') {
      line++;
      i++;
    }
  }
  return records;
}
