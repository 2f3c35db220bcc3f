// Reading and decoding request bodies: the 3 MiB limit (413), the media type
// (415 for unknown ones), JSON with duplicate-key detection, YAML. Returns
// the value and the duplicate field paths for fieldValidation.

import type { Readable } from 'node:stream';
import type { Context } from 'hono';
import { JSONSyntaxError, parseJSONStrict, type ParsedJSON } from '../codec/json-parse.ts';
import { YAMLSyntaxError, YAMLTooLargeError, parseYAMLStrict } from '../codec/yaml-parse.ts';
import { MAX_REQUEST_BODY_BYTES, MEDIA_JSON, MEDIA_PROTOBUF, MEDIA_YAML } from '../api/k8s-names.ts';
import { ProtobufError } from '../codec/protobuf/errors.ts';
import { ApiError, errors } from '../api/errors.ts';
import { requestHeader } from './request-headers.ts';
import type { RequestRecord } from '../api/request-record.ts';

/** Tells an audited request what its body decoded to (objectRef facts; the object at Request level and above). */
export function auditRequestObject(c: Context, value: unknown, withFacts = true): void {
  const audit = (c.get('record') as RequestRecord | undefined)?.audit;
  if (!audit) return;
  const meta = withFacts && typeof value === 'object' && value !== null ? (value as { metadata?: unknown }).metadata : undefined;
  const m = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
  const s = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  audit.requestObject({ name: s(m.name), namespace: s(m.namespace), uid: s(m.uid), resourceVersion: s(m.resourceVersion) }, value);
}

/** The media type without parameters, lower-cased. */
export function mediaType(contentType: string | undefined | null): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export async function readBodyBytes(c: Context, limit = MAX_REQUEST_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(requestHeader(c, 'content-length') ?? '');
  if (Number.isFinite(declared) && declared > limit) throw errors.tooLarge(limit);
  // over a socket the body is read from node's request itself: asking the fetch Request for its
  // body stream would build that Request and a web stream around the same bytes first
  const incoming = (c.env as { incoming?: Readable } | undefined)?.incoming;
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (incoming && typeof incoming.on === 'function') {
    if (incoming.readableEnded) return new Uint8Array(0);
    if (!(await readIncoming(incoming, limit, chunks))) {
      // the rest of the body is not read: the 413 goes out and the connection is closed after it
      throw new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`, undefined, { Connection: 'close' });
    }
    total = chunks.reduce((n, ch) => n + ch.byteLength, 0);
  } else {
    const body = c.req.raw.body;
    if (!body) return new Uint8Array(0);
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        throw errors.tooLarge(limit);
      }
      chunks.push(value);
    }
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let off = 0;
  for (const ch of chunks) {
    out.set(ch, off);
    off += ch.byteLength;
  }
  return out;
}

/** Reads node's request into `chunks`; false (reading stopped) when it grows past `limit`. */
function readIncoming(incoming: Readable, limit: number, chunks: Uint8Array[]): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let total = 0;
    // methods of one object rather than arrow functions bound to names: the
    // compiled build keeps function names by redefining `name` on every such
    // function when it is created, which costs more than the rest of this per request
    const on = {
      data(chunk: Uint8Array) {
        total += chunk.byteLength;
        if (total > limit) {
          incoming.pause();
          on.stop();
          resolve(false);
          return;
        }
        chunks.push(chunk);
      },
      end() {
        on.stop();
        resolve(true);
      },
      error(err: Error) {
        on.stop();
        reject(err);
      },
      // a client gone before the end of its body
      close() {
        on.stop();
        reject(new Error('the request body ended early: the client closed the connection'));
      },
      stop() {
        incoming.off('data', on.data).off('end', on.end).off('error', on.error).off('close', on.close);
      },
    };
    incoming.on('data', on.data).on('end', on.end).on('error', on.error).on('close', on.close);
  });
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * Decodes a JSON or YAML text; a syntax error (nesting past the limit and
 * broken or excessive YAML aliases included) is 400 with the parser's message,
 * a YAML body with too many tokens 413.
 */
export function decodeText(text: string, type: 'json' | 'yaml', what: string): ParsedJSON {
  try {
    return type === 'json' ? parseJSONStrict(text) : parseYAMLStrict(text);
  } catch (err) {
    if (err instanceof JSONSyntaxError) throw errors.badRequest(`${what}: json: ${err.message}`);
    if (err instanceof YAMLSyntaxError) throw errors.badRequest(`${what}: ${err.message}`);
    if (err instanceof YAMLTooLargeError) throw new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: ${err.message}`);
    throw err;
  }
}

/** Decodes an object body of a create or update (JSON, YAML, or protobuf where the kind has it). */
export async function readObjectBody(c: Context, what: string, protobuf?: { decode(bytes: Uint8Array): Promise<Record<string, unknown>> }): Promise<ParsedJSON> {
  const type = mediaType(requestHeader(c, 'content-type'));
  const bytes = await readBodyBytes(c);
  let kind: 'json' | 'yaml';
  if (type === MEDIA_JSON || type === '') kind = 'json';
  else if (type === MEDIA_YAML || type === 'application/x-yaml' || type === 'text/yaml') kind = 'yaml';
  else if (type === MEDIA_PROTOBUF && protobuf) {
    if (bytes.byteLength === 0) throw errors.badRequest(`${what}: the request body is empty`);
    try {
      const value = await protobuf.decode(bytes);
      auditRequestObject(c, value);
      return { value, duplicates: [] };
    } catch (err) {
      if (err instanceof ProtobufError) throw errors.badRequest(`${what}: ${err.message}`);
      throw err;
    }
  } else throw errors.unsupportedMediaType(type, protobuf ? [MEDIA_JSON, MEDIA_YAML, MEDIA_PROTOBUF] : [MEDIA_JSON, MEDIA_YAML]);
  if (bytes.byteLength === 0) throw errors.badRequest(`${what}: the request body is empty`);
  const parsed = decodeText(decoder.decode(bytes), kind, what);
  if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
    throw errors.badRequest(`${what}: the body must be an object`);
  }
  auditRequestObject(c, parsed.value);
  return parsed;
}
