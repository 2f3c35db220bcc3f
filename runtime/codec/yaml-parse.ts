// YAML request bodies: one document decoded to JSON values, with duplicate
// mapping keys reported by field path (as parseJSONStrict does for JSON).

import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { ParsedJSON } from './json-parse.ts';

export class YAMLSyntaxError extends Error {}

function keyText(k: unknown): string {
  if (isScalar(k)) return String(k.value);
  return String(k);
}

function findDuplicates(node: Node | null | undefined, path: string, out: string[]): void {
  if (!node) return;
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const k = keyText(pair.key);
      const p = path ? `${path}.${k}` : k;
      if (seen.has(k)) out.push(p);
      seen.add(k);
      findDuplicates(pair.value as Node, p, out);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, idx) => findDuplicates(item as Node, `${path}[${idx}]`, out));
  }
}

export function parseYAMLStrict(text: string): ParsedJSON {
  const doc = parseDocument(text, { uniqueKeys: false, version: '1.2', prettyErrors: false });
  if (doc.errors.length) {
    throw new YAMLSyntaxError(`error converting YAML to JSON: yaml: ${doc.errors[0].message.split('\n')[0]}`);
  }
  const duplicates: string[] = [];
  findDuplicates(doc.contents as Node, '', duplicates);
  const value = doc.toJS({ maxAliasCount: 100 });
  return { value: value === undefined ? null : value, duplicates };
}
