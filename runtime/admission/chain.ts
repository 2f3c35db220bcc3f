// Admission: the stage between authorization and storage where plugins may
// mutate (first) and then validate (second) an object about to be written.
// Plugins are registered at start-up; the chain runs them in order and turns
// a refusal into the Status error the plugin chose.

import type { UserInfo } from '../auth/user.ts';
import type { Obj } from '../storage/interface.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: Operation;
  group: string;
  version: string;
  kind: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  object: Obj | null;
  oldObject: Obj | null;
  dryRun: boolean;
  user: UserInfo;
}

export interface AdmissionPlugin {
  name: string;
  /** May change attrs.object in place. */
  admit?(attrs: AdmissionAttributes): void | Promise<void>;
  /** Throws an ApiError to refuse. */
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}

export class AdmissionChain {
  constructor(private readonly plugins: AdmissionPlugin[] = []) {}

  add(plugin: AdmissionPlugin): void {
    this.plugins.push(plugin);
  }

  async run(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.admit) await p.admit(attrs);
    for (const p of this.plugins) if (p.validate) await p.validate(attrs);
  }

  get size(): number {
    return this.plugins.length;
  }
}
