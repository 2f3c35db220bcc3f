// Built-in behaviour that is not one resource's strategy: objects created at
// start-up (initial namespaces), in-process controllers, and admission
// plugins. startServer() calls installBuiltins() once before it listens;
// stop() ends the controllers.

import type { AdmissionChain } from '../admission/chain.ts';
import type { ApiIndex } from '../server/api-index.ts';
import { bootstrapNamespaces } from './bootstrap.ts';

export interface BuiltinContext {
  api: ApiIndex;
  admission: AdmissionChain;
  /** Server flags that built-ins read (service ranges ...). */
  flags: Record<string, string | number | boolean | undefined>;
}

export interface InstalledBuiltins {
  stop(): Promise<void>;
}

export async function installBuiltins(ctx: BuiltinContext): Promise<InstalledBuiltins> {
  await bootstrapNamespaces(ctx.api);
  return { async stop() {} };
}
