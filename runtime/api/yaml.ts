// The `yaml` package, loaded the first time something needs it (a YAML
// request body or answer, a YAML configuration file) rather than at start-up:
// most servers never see YAML, and loading it costs a good part of the
// start-up import. Its parser and printer are synchronous, so it is loaded
// synchronously (Node's require of its CommonJS build), once.

import { createRequire } from 'node:module';

type YAMLModule = typeof import('yaml');

let loaded: YAMLModule | undefined;

/** The yaml package (loaded on the first call). */
export function yaml(): YAMLModule {
  loaded ??= createRequire(import.meta.url)('yaml') as YAMLModule;
  return loaded;
}
