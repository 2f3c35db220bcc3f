// A CRD version's selectableFields (1.31, beta): each jsonPath must name a
// field of the schema (dot notation, no list indexes), not under metadata,
// of type string, boolean or integer, without duplicates; at most 8.
// Upstream's texts.
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { parseRuleFieldPath } from '../../../cel/rules/field-path.ts';
import type { JSONSchema } from '../../../cel/schema/types.ts';

/** Upstream's MaxSelectableFields. */
export const MAX_SELECTABLE_FIELDS = 8;

function schemaAt(schema: JSONSchema, segments: string[]): JSONSchema | undefined {
  let s: JSONSchema | undefined = schema;
  for (const seg of segments) {
    const name = seg.startsWith('.') ? seg.slice(1) : seg.slice(1, -1);
    if (!s) return undefined;
    s = s.properties?.[name] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
  }
  return s;
}

export function validateSelectableFields(fields: unknown[], schema: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const p = `${path}[${i}].jsonPath`;
    const jp = f !== null && typeof f === 'object' && typeof (f as { jsonPath?: unknown }).jsonPath === 'string' ? (f as { jsonPath: string }).jsonPath : '';
    if (!jp) {
      errs.push(fieldErrors.required(p, ''));
      return;
    }
    if (jp.includes('[')) {
      errs.push(fieldErrors.invalid(p, jp, 'is an invalid path: array notation is not allowed'));
      return;
    }
    if (jp === '.metadata' || jp.startsWith('.metadata.')) {
      errs.push(fieldErrors.invalid(p, jp, 'must not point to fields in metadata'));
      return;
    }
    const segs = parseRuleFieldPath(jp, schema as JSONSchema);
    if (typeof segs === 'string') {
      errs.push(fieldErrors.invalid(p, jp, `is an invalid path: ${segs}`));
      return;
    }
    const found = schemaAt(schema as JSONSchema, segs);
    if (!found || !['string', 'boolean', 'integer'].includes(String(found.type))) {
      errs.push(fieldErrors.invalid(p, jp, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    const key = segs.join('');
    if (unique.has(key)) errs.push(fieldErrors.duplicate(p, jp));
    else unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) errs.push(fieldErrors.tooMany(path, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}
