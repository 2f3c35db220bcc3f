// YAML request bodies: one document decoded to JSON values, with duplicate
// mapping keys reported by field path (as parseJSONStrict does for JSON).
//
// Hostile input fails fast with go-yaml's messages (what kube-apiserver
// answers, prefixed `error converting YAML to JSON: yaml: `), never with a
// stack overflow or a memory blow-up:
// - nesting: the CST parser is iterative; its stack is watched while it runs
//   and the exact depth checked before the (recursive) composer sees the
//   tokens: `exceeded max depth of N` (N = MAX_NESTING_DEPTH, see limits.ts);
// - aliases: resolved in one pass (`unknown anchor 'x' referenced`, `anchor
//   'x' value contains itself`), then expanded by an iterative walk that
//   applies go-yaml's budget (aliases may make up 99% of the decoded nodes
//   of a small document, falling to 10% from 4,000,000 nodes: `document
//   contains excessive aliasing`) and the depth limit to the expanded value.
// - size: the YAML parser takes about a microsecond per token, so a 3 MiB
//   body of tiny items held the single thread for seconds; bodies of more
//   than MAX_YAML_TOKENS tokens are refused (YAMLTooLargeError, a 413; our
//   own limit: 100,000 labels are about 600,000 tokens and too large to store
//   anyway).
// JSON is YAML: a body that parses as JSON (what client libraries send as
// apply patches) takes the JSON parser, several times faster than the YAML
// one, and no token limit; anything else falls through to YAML.

import type { CST, Document, Node } from 'yaml';
import { yaml } from '../api/yaml.ts';
import { JSONSyntaxError, parseJSONStrict, type ParsedJSON } from './json-parse.ts';
import { fieldPathIn, MAX_NESTING_DEPTH } from './limits.ts';

export class YAMLSyntaxError extends Error {}

/** A YAML body over MAX_YAML_TOKENS (the HTTP layer answers 413). */
export class YAMLTooLargeError extends Error {}

export const MAX_YAML_TOKENS = 500_000;

const OPTIONS = { uniqueKeys: false, version: '1.2', prettyErrors: false } as const;

function fail(problem: string): never {
  throw new YAMLSyntaxError(`error converting YAML to JSON: yaml: ${problem}`);
}

export function parseYAMLStrict(text: string, opts: { maxDepth?: number } = {}): ParsedJSON {
  const maxDepth = opts.maxDepth ?? MAX_NESTING_DEPTH;
  if (/^\s*[[{]/.test(text)) {
    try {
      return parseJSONStrict(text, { maxDepth });
    } catch (e) {
      if (!(e instanceof JSONSyntaxError)) throw e;
    }
  }
  const doc = compose(text, maxDepth);
  if (doc.errors.length) fail(doc.errors[0].message.split('\n')[0]);
  const targets = resolveAliases(doc.contents);
  const duplicates: string[] = [];
  const value = toJSON(doc.contents, targets, maxDepth, duplicates);
  return { value, duplicates };
}

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);

/** Parses the first document, rejecting nesting deeper than `maxDepth` before composing it. */
function compose(text: string, maxDepth: number): Document.Parsed {
  const { Composer, Lexer, Parser } = yaml();
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  // The parser's stack holds the document, the open collections and at most
  // one scalar or so: far past maxDepth + 2 entries means too deep, and stops
  // a million-level document after a few hundred levels.
  let count = 0;
  for (const lexeme of new Lexer().lex(text)) {
    if (++count > MAX_YAML_TOKENS) {
      throw new YAMLTooLargeError(`a YAML body may have at most ${MAX_YAML_TOKENS} tokens; send large objects as JSON`);
    }
    for (const t of parser.next(lexeme)) tokens.push(t);
    if (parser.stack.length > maxDepth + 3) fail(`exceeded max depth of ${maxDepth}`);
  }
  for (const t of parser.end()) tokens.push(t);
  for (const t of tokens) if (cstDepth(t) > maxDepth) fail(`exceeded max depth of ${maxDepth}`);

  const composer = new Composer(OPTIONS);
  let doc: Document.Parsed | undefined;
  for (const d of composer.compose(tokens, true, text.length)) {
    if (doc) fail('multiple documents are not supported in a request body');
    doc = d;
  }
  return doc!;
}

/** Deepest nesting of collections in a CST token (iterative). */
function cstDepth(root: CST.Token): number {
  let max = 0;
  const stack: [CST.Token, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [t, d] = stack.pop()!;
    if (t.type === 'document') {
      if (t.value) stack.push([t.value, d]);
      continue;
    }
    if (!COLLECTIONS.has(t.type)) continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    for (const item of (t as CST.BlockMap | CST.BlockSequence | CST.FlowCollection).items) {
      const it = item as CST.CollectionItem;
      if (it.key) stack.push([it.key, depth]);
      if (it.value) stack.push([it.value, depth]);
    }
  }
  return max;
}

type Item = Node | null | undefined;

function childrenOf(node: Item): Item[] {
  const { isMap, isPair, isSeq } = yaml();
  if (isMap(node)) {
    const out: Item[] = [];
    for (const p of node.items) out.push(p.key as Item, p.value as Item);
    return out;
  }
  if (isSeq(node)) {
    const out: Item[] = [];
    for (const it of node.items) {
      if (isPair(it)) out.push(it.key as Item, it.value as Item);
      else out.push(it as Item);
    }
    return out;
  }
  return [];
}

/**
 * Maps each alias to the node it names: the latest anchor of that name before
 * it in document order (as go-yaml binds them). An alias inside the node its
 * anchor is on would expand forever.
 */
function resolveAliases(root: Item): Map<Node, Node> {
  const { isAlias } = yaml();
  const targets = new Map<Node, Node>();
  const anchors = new Map<string, Node>();
  const open = new Set<Node>();
  // pre-order walk; `null` entries close the node below them
  const stack: (Item | { close: Node })[] = [root];
  while (stack.length > 0) {
    const e = stack.pop();
    if (!e) continue;
    if ('close' in e) {
      open.delete(e.close);
      continue;
    }
    const node = e as Node;
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (!target) fail(`unknown anchor '${node.source}' referenced`);
      if (open.has(target)) fail(`anchor '${node.source}' value contains itself`);
      targets.set(node, target);
      continue;
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, node);
    const kids = childrenOf(node);
    if (kids.length === 0) continue;
    open.add(node);
    stack.push({ close: node });
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
  }
  return targets;
}

// go-yaml's alias budget (decode.go allowedAliasRatio).
const ALIAS_RATIO_LOW = 400_000;
const ALIAS_RATIO_HIGH = 4_000_000;
function allowedAliasRatio(decodes: number): number {
  if (decodes <= ALIAS_RATIO_LOW) return 0.99;
  if (decodes >= ALIAS_RATIO_HIGH) return 0.1;
  return 0.99 - 0.89 * ((decodes - ALIAS_RATIO_LOW) / (ALIAS_RATIO_HIGH - ALIAS_RATIO_LOW));
}

/** A map or list being filled. */
interface Frame {
  out: Record<string, unknown> | unknown[];
  /** Map: keys then values, alternating. List: items (a pair item is a one-key map). */
  kids: Item[];
  next: number;
  isMap: boolean;
  /** Key of the value being converted (maps). */
  key: string;
  /** Key or index in the parent, for duplicate field paths. */
  seg: string | number;
  /** Aliases entered to reach this node (left when it is done). */
  aliases: number;
  /** A pair inside a list: its one-key map. */
  pairMap?: Record<string, unknown>;
}

function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** A scalar's JSON value (`%YAML 1.1` documents can also hold binary, timestamps and the merge key). */
function scalarValue(node: Node): unknown {
  const v = (node as { value?: unknown }).value;
  if (v === undefined || v === null) return null;
  switch (typeof v) {
    case 'string':
    case 'number':
    case 'boolean':
      return v;
    case 'bigint':
      return Number(v);
    case 'symbol':
      return v.description ?? '';
  }
  // !!binary: the bytes as text, as go-yaml hands them to the JSON encoder
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString();
  return String(v);
}

function keyString(v: unknown): string {
  return v === null ? '' : String(v);
}

/** Converts the composed document to JSON values without recursion. */
function toJSON(root: Item, targets: Map<Node, Node>, maxDepth: number, duplicates: string[]): unknown {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yaml();
  let decodes = 0;
  let aliasCount = 0;
  let aliasDepth = 0;
  const stack: Frame[] = [];

  const pathTo = (key: string): string => fieldPathIn(stack, key);

  /** Follows aliases (counting them as go-yaml does); returns the node and the aliases entered. */
  const enter = (item: Item): [Item, number] => {
    let node = item;
    let entered = 0;
    for (;;) {
      decodes++;
      if (aliasDepth > 0) aliasCount++;
      if (aliasCount > 100 && decodes > 1000 && aliasCount / decodes > allowedAliasRatio(decodes)) {
        aliasDepth -= entered;
        fail('document contains excessive aliasing');
      }
      if (!isAlias(node)) return [node, entered];
      node = targets.get(node);
      aliasDepth++;
      entered++;
    }
  };

  /** Starts converting `item`: a finished value, or a frame pushed for a collection. */
  const start = (item: Item, seg: string | number): { value: unknown } | undefined => {
    const [node, entered] = enter(item);
    if (isMap(node) || isSeq(node)) {
      if (stack.length >= maxDepth) fail(`exceeded max depth of ${maxDepth}`);
      const map = isMap(node);
      stack.push({ out: map ? {} : [], kids: map ? childrenOf(node) : (node.items as Item[]), next: 0, isMap: map, key: '', seg, aliases: entered });
      return undefined;
    }
    aliasDepth -= entered;
    if (node === null || node === undefined) return { value: null };
    if (isScalar(node)) return { value: scalarValue(node) };
    return fail(`cannot decode a ${node.constructor?.name ?? typeof node} node`);
  };

  /** A map key: a scalar (or an alias of one), as its string. */
  const keyOf = (item: Item): string => {
    const [node, entered] = enter(item);
    aliasDepth -= entered;
    if (node === null || node === undefined) return '';
    if (isScalar(node)) return keyString(scalarValue(node));
    return fail(`invalid map key: a ${isMap(node) ? 'mapping' : isSeq(node) ? 'sequence' : 'node'} cannot be a key`);
  };

  const first = start(root, '');
  if (first) return first.value;
  let done: unknown;
  for (;;) {
    const top = stack[stack.length - 1];
    if (top.next >= top.kids.length) {
      // collection complete
      stack.pop();
      aliasDepth -= top.aliases;
      const v = top.out;
      const parent = stack[stack.length - 1];
      if (!parent) {
        done = v;
        break;
      }
      store(parent, v);
      continue;
    }
    let r: { value: unknown } | undefined;
    if (top.isMap) {
      top.key = keyOf(top.kids[top.next]);
      r = start(top.kids[top.next + 1], top.key);
      top.next += 2;
    } else {
      const item = top.kids[top.next++];
      if (isPair(item)) {
        // `[a: 1]`: a one-pair map in a flow list
        const m: Record<string, unknown> = {};
        const k = keyOf(item.key as Item);
        const inner = start(item.value as Item, (top.out as unknown[]).length);
        if (inner) setOwn(m, k, inner.value);
        else {
          top.pairMap = m;
          top.key = k;
          continue;
        }
        r = { value: m };
      } else r = start(item, (top.out as unknown[]).length);
    }
    if (r) store(top, r.value);
  }
  return done;

  function store(f: Frame, v: unknown): void {
    if (f.isMap) {
      const o = f.out as Record<string, unknown>;
      if (aliasDepth === 0 && Object.prototype.hasOwnProperty.call(o, f.key)) duplicates.push(pathTo(f.key));
      setOwn(o, f.key, v);
    } else if (f.pairMap) {
      setOwn(f.pairMap, f.key, v);
      (f.out as unknown[]).push(f.pairMap);
      f.pairMap = undefined;
    } else (f.out as unknown[]).push(v);
  }
}
