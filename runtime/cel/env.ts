// The evaluation environment: @bufbuild/cel with the string extensions, our
// CEL equality, optionals and the Kubernetes libraries (lists, regex, URL,
// quantity, authorizer, IP and CIDR, format), wrapped so that calls charge the runtime cost
// budget. Boundary: assembling functions; no parsing or checking here.
import { celEnv, celFunc, CelScalar, listType, type CelEnv, type CelFunc } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { Registry } from '@bufbuild/protobuf';
import { optionalFuncs } from './libs/optional.ts';
import { equalityFuncs, celEquals } from './values/equality.ts';
import { listFuncs } from './libs/lists.ts';
import { regexFuncs } from './libs/regex.ts';
import { urlFuncs } from './libs/url.ts';
import { quantityFuncs } from './libs/quantity.ts';
import { authorizerFuncs } from './libs/authorizer.ts';
import { setsFuncs } from './libs/sets.ts';
import { ipFuncs, ipStringFuncs } from './libs/ip.ts';
import { formatFuncs } from './libs/format.ts';
import { costingResolver, activeTracker } from './cost/runtime.ts';

const internalFuncs: CelFunc[] = [
  celFunc('@in', [CelScalar.DYN, listType(CelScalar.DYN)], CelScalar.BOOL, (x, l) => {
    for (const e of l) if (celEquals(x, e)) return true;
    return false;
  }),
  celFunc('@iter', [CelScalar.DYN], CelScalar.DYN, (c) => {
    activeTracker()?.charge(1);
    return c as never;
  }),
];

export const kubernetesFuncs: CelFunc[] = [
  ...strings,
  ...equalityFuncs,
  ...internalFuncs,
  ...optionalFuncs,
  ...listFuncs,
  ...regexFuncs,
  ...urlFuncs,
  ...quantityFuncs,
  ...authorizerFuncs,
  ...setsFuncs,
  ...ipFuncs,
  ...ipStringFuncs,
  ...formatFuncs,
];

export function makeEnv(opts: { namespace?: string; registry?: Registry; extraFuncs?: CelFunc[] } = {}): CelEnv {
  const base = celEnv({ namespace: opts.namespace, registry: opts.registry, funcs: [...kubernetesFuncs, ...(opts.extraFuncs ?? [])] });
  const funcs = costingResolver(base.funcs);
  return {
    get namespace() {
      return base.namespace;
    },
    get registry() {
      return base.registry;
    },
    get funcs() {
      return funcs;
    },
    get variables() {
      return base.variables;
    },
  } as unknown as CelEnv;
}

let shared: CelEnv | undefined;
export function defaultEnv(): CelEnv {
  shared ??= makeEnv();
  return shared;
}
