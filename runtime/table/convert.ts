// Converts objects to a meta.k8s.io Table (what `kubectl get` prints): the
// Name column, then the resource's printer columns from api-specs (cells by
// JSONPath or a named formatter), or `Created At` when it declares none.
// Date cells become ages; -o wide columns have priority 1. Custom resources
// follow the apiextensions server's table convertor instead: `Age` when the
// version has no additionalPrinterColumns, column types as declared
// (`date` too), a default description naming the JSONPath, and a cell that
// is missing or not of the column's type left empty (null).

import type { PrinterColumn, ResourceDef } from '../../generated/api-types.ts';
import type { Obj } from '../storage/interface.ts';
import { humanDuration } from './human-duration.ts';
import { evalPath } from './jsonpath.ts';

export type Cell = string | number | boolean | null;
export type CellFormatter = (obj: Obj, column: PrinterColumn) => Cell;
export type IncludeObject = 'None' | 'Metadata' | 'Object';

const NAME_COLUMN = {
  name: 'Name',
  type: 'string',
  format: 'name',
  priority: 0,
  description:
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
};

const CREATED_AT: PrinterColumn = {
  name: 'Created At',
  type: 'date',
  priority: 0,
  jsonPath: '.metadata.creationTimestamp',
  description: 'CreationTimestamp is a timestamp representing the server time when this object was created.',
};

/** What a custom resource version without additionalPrinterColumns shows (upstream's serveDefaultColumnsIfEmpty). */
const AGE: PrinterColumn = { ...CREATED_AT, name: 'Age' };

/** A custom resource's cell: the value if it has the column's type (integers truncated, dates as ages), else null. */
function customCell(obj: Obj, col: PrinterColumn, now: number): Cell {
  const values = evalPath(obj, col.jsonPath);
  if (values.length === 0) return null;
  const v = values[0];
  if (v === null || v === undefined) return null;
  switch (col.type) {
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
    case 'integer':
      return typeof v === 'number' ? Math.trunc(v) : null;
    case 'number':
      return typeof v === 'number' ? v : null;
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    case 'date': {
      if (typeof v !== 'string') return null;
      const t = Date.parse(v);
      return Number.isNaN(t) ? '<invalid>' : humanDuration(now - t);
    }
    default:
      return null;
  }
}

function cellValue(obj: Obj, col: PrinterColumn, formatters: Record<string, CellFormatter>, now: number): Cell {
  if (col.formatter && formatters[col.formatter]) return formatters[col.formatter](obj, col);
  const values = evalPath(obj, col.jsonPath);
  if (values.length === 0) return col.type === 'date' ? '<unknown>' : null;
  if (col.type === 'date') {
    const t = Date.parse(String(values[0]));
    return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
  }
  if (values.length === 1) {
    const v = values[0];
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
    return JSON.stringify(v);
  }
  return values.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(',');
}

export function partialObjectMetadata(obj: Obj, version = 'v1'): Obj {
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata ?? {} };
}

export interface TableOptions {
  includeObject: IncludeObject;
  version: string;
  listMeta?: Record<string, unknown>;
  formatters: Record<string, CellFormatter>;
  noHeaders?: boolean;
  /** The object the cells are read from (a built-in resource's storage-version form); the row still carries the object as answered. */
  cellsFrom?: (obj: Obj) => Obj;
}

export function toTable(def: ResourceDef, objs: Obj[], opts: TableOptions): Obj {
  const custom = def.custom === true;
  const cols = def.printerColumns.length ? def.printerColumns : [custom ? AGE : CREATED_AT];
  const now = Date.now();
  const columnDefinitions = [
    NAME_COLUMN,
    ...cols.map((c) => ({
      name: c.name,
      type: c.type === 'date' && !custom ? 'string' : c.type,
      format: c.format ?? '',
      description: c.description || (custom ? `Custom resource definition column (in JSONPath format): ${c.jsonPath}` : ''),
      priority: c.priority,
    })),
  ];
  const cell = custom ? (obj: Obj, c: PrinterColumn) => customCell(obj, c, now) : (obj: Obj, c: PrinterColumn) => cellValue(obj, c, opts.formatters, now);
  const rows = objs.map((obj) => {
    const source = opts.cellsFrom ? opts.cellsFrom(obj) : obj;
    const row: Obj = { cells: [obj.metadata?.name ?? '', ...cols.map((c) => cell(source, c))] };
    if (opts.includeObject === 'Object') row.object = obj;
    else if (opts.includeObject === 'Metadata') row.object = partialObjectMetadata(obj, opts.version);
    return row;
  });
  const table: Obj = {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.version}`,
    metadata: opts.listMeta ?? {},
  };
  if (!opts.noHeaders) table.columnDefinitions = columnDefinitions;
  table.rows = rows;
  return table;
}
