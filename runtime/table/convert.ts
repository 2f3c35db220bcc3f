// Converts objects to a meta.k8s.io Table (what `kubectl get` prints): the
// Name column, then the resource's printer columns from api-specs (cells by
// JSONPath or a named formatter), or `Created At` when it declares none.
// Date cells become ages; -o wide columns have priority 1.

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
}

export function toTable(def: ResourceDef, objs: Obj[], opts: TableOptions): Obj {
  const cols = def.printerColumns.length ? def.printerColumns : [CREATED_AT];
  const now = Date.now();
  const columnDefinitions = [
    NAME_COLUMN,
    ...cols.map((c) => ({
      name: c.name,
      type: c.type === 'date' ? 'string' : c.type,
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority,
    })),
  ];
  const rows = objs.map((obj) => {
    const row: Obj = { cells: [obj.metadata?.name ?? '', ...cols.map((c) => cellValue(obj, c, opts.formatters, now))] };
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
