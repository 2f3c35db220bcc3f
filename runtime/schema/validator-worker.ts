// Compiling the validators of CustomResourceDefinitions off the event loop.
// ajv's compile of a big schema takes seconds of CPU (thousands of
// properties), so it runs in a worker thread: the worker compiles the JSON
// Schema with ajv and answers with ajv's standalone source, which the main
// thread only evaluates (parsing is cheap next to ajv's code generation).
// Patterns are RE2, as Kubernetes checks them: ajv's regular expression
// engine is @bufbuild/re2 on both sides. One worker serves every compile,
// one at a time in order; it is started with the first compile and ended
// when idle for a while. compileInProcess() does the same on the calling
// thread (tests and callers without a worker).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Ajv, type ValidateFunction } from 'ajv';
import { FORMATS } from './json-schema.ts';
import { compilePattern } from './re2.ts';

/** Compiles the definition `root` among `definitions` (a JSON Schema `definitions` map under the id `defs`). */
export type ValidatorCompiler = (definitions: Record<string, unknown>, root: string) => Promise<ValidateFunction>;

const nodeRequire = createRequire(import.meta.url);
/** How the standalone source names the pattern engine. */
const RE2_MODULE = 'specserver-re2-pattern';

interface PatternLike {
  test(s: string): boolean;
  toString(): string;
}

/** ajv's regular expression engine: RE2 (unanchored search, as Go's MatchString). */
function re2Pattern(pattern: string): PatternLike {
  const re = compilePattern(pattern);
  return { test: (s) => re.test(s), toString: () => pattern };
}
re2Pattern.code = `require(${JSON.stringify(RE2_MODULE)})`;

const ajvOptions = { allErrors: true, strict: false, inlineRefs: false, formats: FORMATS } as const;
/**
 * ajv's name-optimizing passes over the generated code are left out: on a
 * schema of thousands of properties they are half of the compile (the code
 * is about a tenth bigger, and validates as fast).
 */
const CODE_OPTIMIZE = false;

/** ajv's standalone source -> the validate function (its requires limited to ajv's runtime and the pattern engine). */
export function validatorFromSource(source: string): ValidateFunction {
  const req = (id: string): unknown => {
    if (id === RE2_MODULE) return re2Pattern;
    if (id.startsWith('ajv/dist/runtime/')) return nodeRequire(id);
    throw new Error(`validator source requires ${id}`);
  };
  const mod: { exports: unknown } = { exports: {} };
  new Function('require', 'module', 'exports', source)(req, mod, mod.exports);
  return mod.exports as ValidateFunction;
}

/** Compiles on the calling thread (blocks it for as long as ajv takes). */
export const compileInProcess: ValidatorCompiler = async (definitions, root) => {
  const ajv = new Ajv({ ...ajvOptions, code: { regExp: re2Pattern, optimize: CODE_OPTIMIZE } });
  ajv.addSchema({ $id: 'defs', definitions });
  return ajv.compile({ $ref: root });
};

// The worker's own code, plain CommonJS evaluated by the worker (it needs no TypeScript loader, in tests or in dist/).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Ajv } = require(workerData.ajv);
const standalone = require(workerData.standalone);
const { RE2JS } = require(workerData.re2);
const standaloneCode = standalone.default || standalone;
function re2Pattern(pattern) {
  const re = RE2JS.compile(pattern);
  return { test: (s) => re.test(s), toString: () => pattern };
}
re2Pattern.code = workerData.re2Code;
parentPort.on('message', ({ id, definitions, root }) => {
  try {
    const ajv = new Ajv({ ...workerData.options, code: { source: true, lines: false, regExp: re2Pattern, optimize: workerData.optimize } });
    ajv.addSchema({ $id: 'defs', definitions });
    const fn = ajv.compile({ $ref: root });
    parentPort.postMessage({ id, source: standaloneCode(ajv, fn) });
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});
`;

interface Pending {
  resolve: (fn: ValidateFunction) => void;
  reject: (err: Error) => void;
}

export interface WorkerCompilerOptions {
  /** How long an idle worker is kept (ms, default 10 s). */
  idleMs?: number;
}

/** Compiles in a worker thread; the main thread only evaluates the result. */
export class WorkerCompiler {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  /** How many workers were started (for tests). */
  started = 0;

  constructor(opts: WorkerCompilerOptions = {}) {
    this.idleMs = opts.idleMs ?? 10_000;
  }

  readonly compile: ValidatorCompiler = (definitions, root) =>
    new Promise<ValidateFunction>((resolve, reject) => {
      const id = ++this.next;
      this.pending.set(id, { resolve, reject });
      const w = this.ensure();
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
      w.ref();
      w.postMessage({ id, definitions, root });
    });

  /** Ends the worker (pending compiles are refused). */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const w = this.worker;
    this.worker = undefined;
    this.fail(new Error('the validator compiler was closed'));
    if (w) await w.terminate();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        ajv: nodeRequire.resolve('ajv'),
        standalone: nodeRequire.resolve('ajv/dist/standalone/index.js'),
        re2: nodeRequire.resolve('@bufbuild/re2'),
        re2Code: re2Pattern.code,
        options: ajvOptions,
        optimize: CODE_OPTIMIZE,
      },
    });
    this.started++;
    w.on('message', (m: { id: number; source?: string; error?: string }) => this.answer(m));
    w.on('error', (err) => {
      if (this.worker === w) this.worker = undefined;
      this.fail(err);
    });
    w.on('exit', () => {
      if (this.worker === w) this.worker = undefined;
      this.fail(new Error('the validator compiler stopped'));
    });
    this.worker = w;
    return w;
  }

  private answer(m: { id: number; source?: string; error?: string }): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.error !== undefined || m.source === undefined) p.reject(new Error(m.error ?? 'no validator source'));
    else {
      try {
        p.resolve(validatorFromSource(m.source));
      } catch (err) {
        p.reject(err as Error);
      }
    }
    if (this.pending.size === 0) this.idle();
  }

  private idle(): void {
    const w = this.worker;
    if (!w) return;
    w.unref();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.pending.size === 0 && this.worker === w) {
        this.worker = undefined;
        void w.terminate();
      }
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private fail(err: Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(err);
  }
}
