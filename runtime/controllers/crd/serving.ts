// Serving the resources of CustomResourceDefinitions: a CRD whose names are
// accepted is compiled (runtime/schema/compile.ts: the translation codegen
// uses) under its accepted names, its schemas registered with the server's
// custom schemas, and its group and resource bound in the served index
// (registry/served.ts), replacing what it was served with before (the
// compiler, and ajv under it, is imported when the first CRD is served; ajv
// compiles in a worker thread, so a big schema does not hold up requests).
// Stopping drops it from the index and forgets its schemas; stored objects stay.
// Each served CRD gets the converter of its spec.conversion (None or its
// webhook, registry/conversion/), which its store uses to store objects in
// the storage version and to answer in the request's; a `service` webhook
// is reached through the Service's Endpoints.

import type { CompiledCrdVersion } from '../../schema/compile.ts';
import type { ValidatorCompiler, WorkerCompiler } from '../../schema/validator-worker.ts';
import type { CustomSchemas } from '../../registry/custom-schemas.ts';
import { serveResource, type ApiIndex, type StorageProvider } from '../../registry/served.ts';
import type { WriteServices } from '../../registry/write-services.ts';
import type { FeatureGates } from '../../features/feature-gates.ts';
import type { Obj } from '../../storage/interface.ts';
import { converterForCrd } from '../../registry/conversion/for-crd.ts';
import { serviceResolver } from '../../webhook-client/service-resolver.ts';
import { servedServiceLookup } from '../../registry/served-service-lookup.ts';
import type { VersionConverter } from '../../registry/conversion/converter.ts';
import type { ServiceResolver } from '../../webhook-client/client-config.ts';
import type { OpenAPISchema } from '../../schema/util.ts';

/** The apiVersion of the CRD's version marked storage (served or not); `fallback` when none is. */
function storageVersionOf(crd: Obj, group: string, fallback: string): string {
  const versions: unknown = crd.spec?.versions;
  const storage = Array.isArray(versions) ? (versions as Obj[]).find((v) => v?.storage === true && typeof v.name === 'string') : undefined;
  return `${group}/${storage ? (storage.name as string) : fallback}`;
}

/** Every version the CRD lists, served or not, with its openAPIV3Schema (by apiVersion). */
function listedVersions(crd: Obj, group: string): Map<string, OpenAPISchema | undefined> {
  const out = new Map<string, OpenAPISchema | undefined>();
  const versions: unknown = crd.spec?.versions;
  if (!Array.isArray(versions)) return out;
  for (const v of versions as Obj[]) {
    if (typeof v?.name !== 'string') continue;
    const schema: unknown = v.schema?.openAPIV3Schema;
    out.set(`${group}/${v.name}`, schema && typeof schema === 'object' ? (schema as OpenAPISchema) : undefined);
  }
  return out;
}

export interface CrdServingDeps {
  api: ApiIndex;
  storageFor: StorageProvider;
  services: WriteServices;
  schemas: CustomSchemas;
  /** How long a conversion webhook may take (default: upstream's 30 s). */
  conversionTimeoutMs?: number;
  /** Where a webhook `service` is reached (default: an address of its Endpoints). */
  resolveService?: ServiceResolver;
  /** Compiles the validators (default: a worker thread started with the first CRD). */
  compiler?: ValidatorCompiler;
  /** The server's feature gates (CustomResourceFieldSelectors off: selectableFields are not served); absent: 1.31's defaults. */
  features?: FeatureGates;
}

interface ServedCrd {
  /** What it was compiled from (spec and accepted names), to tell whether a change needs a new compile. */
  source: string;
  group: string;
  resource: string;
  schemas: string[];
  converter: VersionConverter;
}

export class CrdServing {
  private readonly served = new Map<string, ServedCrd>();
  private compiles = 0;
  private worker: WorkerCompiler | undefined;

  constructor(private readonly deps: CrdServingDeps) {}

  /** Whether the CRD of this name is served. */
  isServed(name: string): boolean {
    return this.served.has(name);
  }

  /** The group and resource a served CRD is served at. */
  servedAt(name: string): { group: string; resource: string } | undefined {
    return this.served.get(name);
  }

  /**
   * Serves a CRD under its accepted names (compiling only when its spec or
   * names changed). Throws what the translation or compile threw; what was
   * served before stays served then.
   */
  async serve(crd: Obj): Promise<CompiledCrdVersion[] | undefined> {
    const name: string = crd.metadata.name;
    const accepted = crd.status?.acceptedNames ?? {};
    const source = JSON.stringify([crd.spec, accepted]);
    const prev = this.served.get(name);
    if (prev?.source === source) return undefined;
    const asServed = { ...crd, spec: { ...crd.spec, names: { ...crd.spec.names, ...accepted } } };
    // ajv is loaded with the first CRD served, not at start
    const { compileCrd } = await import('../../schema/compile.ts');
    const compiled = await compileCrd(asServed, `${crd.metadata.uid ?? name}.${++this.compiles}`, await this.compiler());
    // with CustomResourceFieldSelectors off a version's selectableFields are ignored, as upstream
    if (this.deps.features && !this.deps.features.enabled('CustomResourceFieldSelectors')) for (const c of compiled) c.def = { ...c.def, selectableFields: [] };
    if (compiled.length === 0) {
      this.stop(name);
      return compiled;
    }
    const { group, resource } = compiled[0].def;
    // a resource the server serves from its generated API is never replaced by a CRD's
    const owner = [...this.served.entries()].find(([, c]) => c.group === group && c.resource === resource)?.[0];
    if (owner !== name && this.deps.api.served.some((s) => s.def.group === group && s.def.resource === resource)) {
      throw new Error(`${resource}.${group} is already served`);
    }
    // the CEL evaluator is loaded with the first CRD that has x-kubernetes-validations rules
    await this.deps.schemas.prepare(source.includes('"x-kubernetes-validations"'));
    this.deps.schemas.add(compiled);
    if (prev && (prev.group !== group || prev.resource !== resource)) this.deps.api.remove(prev.group, prev.resource);
    const converter = converterForCrd(crd, { timeoutMs: this.deps.conversionTimeoutMs, resolveService: this.resolveService });
    serveResource(
      this.deps.api,
      compiled.map((c) => c.def),
      this.deps.storageFor,
      this.deps.services,
      { converter, storageVersion: storageVersionOf(crd, group, (compiled.find((c) => c.def.storageVersion) ?? compiled[0]).def.version), versions: listedVersions(crd, group) },
    );
    if (prev) {
      this.deps.schemas.remove(prev.schemas);
      prev.converter.close?.();
    }
    this.served.set(name, { source, group, resource, schemas: compiled.map((c) => c.def.schema), converter });
    return compiled;
  }

  private async compiler(): Promise<ValidatorCompiler> {
    if (this.deps.compiler) return this.deps.compiler;
    if (!this.worker) {
      const { WorkerCompiler } = await import('../../schema/validator-worker.ts');
      this.worker ??= new WorkerCompiler();
    }
    return this.worker.compile;
  }

  /** Ends the compiler's worker thread, if one runs. */
  async close(): Promise<void> {
    await this.worker?.close();
    this.worker = undefined;
  }

  /** The CRD is being deleted: creates of its custom resources are refused from now on. */
  terminating(name: string): void {
    const at = this.served.get(name);
    if (at) this.deps.schemas.setTerminating(at.group, at.resource, true);
  }

  /** Stops serving a CRD's resource. */
  stop(name: string): void {
    const prev = this.served.get(name);
    if (!prev) return;
    this.served.delete(name);
    this.deps.schemas.setTerminating(prev.group, prev.resource, false);
    this.deps.api.remove(prev.group, prev.resource);
    this.deps.schemas.remove(prev.schemas);
    prev.converter.close?.();
  }

  /** A webhook service's address: the deps' resolver, else the Service's EndpointSlices (or Endpoints) as served. */
  private readonly resolveService: ServiceResolver = (namespace, name, port) => {
    if (this.deps.resolveService) return this.deps.resolveService(namespace, name, port);
    return serviceResolver(servedServiceLookup(this.deps.api))(namespace, name, port);
  };
}
