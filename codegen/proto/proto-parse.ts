// Reads the message and field declarations of a proto2/proto3 file into plain
// data: package, imports, and per message its fields (label, type, name,
// number, map key/value). Comments, options and services are skipped. It only
// understands the subset used by Kubernetes' generated.proto files and our own
// emitted files (no oneof, enum, nested messages or groups); anything else is
// an error naming the line. Used to build the field-number lock and in tests.

export interface ParsedField {
  label: 'optional' | 'repeated' | 'required' | 'map';
  type: string; // value type for maps
  mapKey?: string;
  name: string;
  number: number;
}

export interface ParsedMessage {
  name: string;
  fields: ParsedField[];
}

export interface ParsedProto {
  syntax: string;
  package: string;
  imports: string[];
  messages: ParsedMessage[];
}

export class ProtoParseError extends Error {}

function stripComments(text: string): string {
  // One pass so that `/*` inside a line comment or a string is not a block start.
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const n = text[i + 1];
    if (c === '/' && n === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && n === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      const stop = end < 0 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const FIELD = /^(optional|repeated|required)\s+(\.?[A-Za-z_][\w.]*)\s+([A-Za-z_]\w*)\s*=\s*(\d+)\s*(\[[^\]]*\])?\s*;$/;
const MAP = /^map\s*<\s*(\w+)\s*,\s*(\.?[A-Za-z_][\w.]*)\s*>\s+([A-Za-z_]\w*)\s*=\s*(\d+)\s*(\[[^\]]*\])?\s*;$/;

export function parseProto(text: string, file = '<proto>'): ParsedProto {
  const out: ParsedProto = { syntax: 'proto2', package: '', imports: [], messages: [] };
  const lines = stripComments(text).split('\n');
  let current: ParsedMessage | undefined;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    const fail = (why: string): never => {
      throw new ProtoParseError(`${file}:${i + 1}: ${why}: ${line}`);
    };
    if (!current) {
      let m: RegExpMatchArray | null;
      if ((m = line.match(/^syntax\s*=\s*"(\w+)"\s*;$/))) out.syntax = m[1];
      else if ((m = line.match(/^package\s+([\w.]+)\s*;$/))) out.package = m[1];
      else if ((m = line.match(/^import\s+"([^"]+)"\s*;$/))) out.imports.push(m[1]);
      else if (line.startsWith('option ')) return;
      else if ((m = line.match(/^message\s+(\w+)\s*\{\s*(\})?$/))) {
        const msg: ParsedMessage = { name: m[1], fields: [] };
        out.messages.push(msg);
        if (!m[2]) current = msg;
      } else fail('unsupported top-level statement');
      return;
    }
    if (line === '}') {
      current = undefined;
      return;
    }
    let m = line.match(FIELD);
    if (m) {
      current.fields.push({ label: m[1] as ParsedField['label'], type: m[2].replace(/^\./, ''), name: m[3], number: Number(m[4]) });
      return;
    }
    m = line.match(MAP);
    if (m) {
      current.fields.push({ label: 'map', mapKey: m[1], type: m[2].replace(/^\./, ''), name: m[3], number: Number(m[4]) });
      return;
    }
    if (line.startsWith('option ') || line.startsWith('reserved ')) return;
    fail('unsupported statement in message');
  });
  if (current) throw new ProtoParseError(`${file}: message ${current.name} is not closed`);
  return out;
}
