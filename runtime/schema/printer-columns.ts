// Reads a list of printer columns (a CRD version's additionalPrinterColumns,
// or the compact declaration of api-specs/) into PrinterColumn records,
// shared by codegen and the runtime's CRD serving. Problems are reported
// through `fail` with the JSON path of the offending value.
import type { PrinterColumn } from '../../generated/api-types.ts';
import { isObject, jp } from './util.ts';

/** Reports a problem at a JSON path; never returns. */
export type Fail = (at: string, message: string) => never;

const COLUMN_TYPES = ['string', 'integer', 'number', 'boolean', 'date'] as const;

function str(o: Record<string, unknown>, key: string, at: string, fail: Fail): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') fail(jp(at, key), `${key} must be a non-empty string`);
  return v as string;
}

export function readPrinterColumns(v: unknown, at: string, fail: Fail): PrinterColumn[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(at, 'printer columns must be a list');
  return (v as unknown[]).map((c, i) => {
    const p = jp(at, i);
    if (!isObject(c)) fail(p, 'a printer column must be an object');
    const o = c as Record<string, unknown>;
    const name = str(o, 'name', p, fail);
    let type: string = 'string';
    if (o.type !== undefined) {
      if (typeof o.type !== 'string' || !(COLUMN_TYPES as readonly string[]).includes(o.type)) fail(jp(p, 'type'), `unknown type ${JSON.stringify(o.type)} (want one of ${COLUMN_TYPES.join(', ')})`);
      type = o.type as string;
    }
    const col: PrinterColumn = { name, type, priority: o.priority === undefined ? 0 : Number(o.priority), jsonPath: str(o, 'jsonPath', p, fail) };
    if (!Number.isInteger(col.priority) || col.priority < 0) fail(jp(p, 'priority'), 'priority must be a non-negative integer');
    if (typeof o.format === 'string') col.format = o.format;
    if (typeof o.description === 'string') col.description = o.description;
    if (o.formatter !== undefined) col.formatter = str(o, 'formatter', p, fail);
    if (col.name === 'Name') fail(jp(p, 'name'), 'a column list never includes Name (the runtime adds it)');
    return col;
  });
}
