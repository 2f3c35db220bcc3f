// Endpoints (core/v1) and EndpointSlice (discovery.k8s.io): address rules
// (valid IPs of the slice's type, no unspecified, loopback, link-local or
// link-local multicast address), hostnames and node names, port names,
// numbers and protocols; slices hold at most 1000 endpoints and 100 ports,
// each endpoint 1 to 100 addresses, and addressType never changes. Ports
// default to TCP; slices written through v1 lose deprecatedTopology.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { parseIP } from '../allocators/ip.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../api/validation.ts';
import { validateDNS1123Label, validateDNS1123Subdomain } from '../../api/validation.ts';
import type { Strategy } from '../strategy.ts';
import { immutable } from './common/immutable.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { PORT_RANGE_MSG, specialIPErrors, validIPErrors } from './common/ip-rules.ts';

export const MAX_SLICE_ENDPOINTS = 1000;
export const MAX_SLICE_PORTS = 100;
export const MAX_ENDPOINT_ADDRESSES = 100;
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];

function portErrors(path: string, p: Obj, requireName: boolean, optionalPort: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !p.name) errs.push(fieldErrors.required(`${path}.name`, ''));
  if (p.name) for (const m of validateDNS1123Label(p.name)) errs.push(fieldErrors.invalid(`${path}.name`, p.name, m));
  if (!(optionalPort && p.port === undefined)) {
    if (!(typeof p.port === 'number' && p.port >= 1 && p.port <= 65535)) errs.push(fieldErrors.invalid(`${path}.port`, p.port ?? 0, PORT_RANGE_MSG));
  }
  if (p.protocol === undefined || p.protocol === '') {
    if (!optionalPort) errs.push(fieldErrors.required(`${path}.protocol`, ''));
  } else if (!PROTOCOLS.includes(p.protocol)) errs.push(fieldErrors.notSupported(`${path}.protocol`, p.protocol, PROTOCOLS));
  if (p.appProtocol !== undefined) for (const m of qualifiedNameErrors(String(p.appProtocol))) errs.push(fieldErrors.invalid(`${path}.appProtocol`, p.appProtocol, m));
  return errs;
}

function addressErrors(path: string, a: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ip = a?.ip ?? '';
  const invalid = validIPErrors(ip);
  for (const m of invalid) errs.push(fieldErrors.invalid(`${path}.ip`, ip, m));
  if (!invalid.length) for (const m of specialIPErrors(ip)) errs.push(fieldErrors.invalid(`${path}.ip`, ip, m));
  if (a?.hostname) for (const m of validateDNS1123Label(a.hostname)) errs.push(fieldErrors.invalid(`${path}.hostname`, a.hostname, m));
  if (a?.nodeName) for (const m of validateDNS1123Subdomain(a.nodeName)) errs.push(fieldErrors.invalid(`${path}.nodeName`, a.nodeName, m));
  return errs;
}

export function validateEndpoints(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  (Array.isArray(obj.subsets) ? obj.subsets : []).forEach((ss: Obj, i: number) => {
    const p = `subsets[${i}]`;
    const addrs: Obj[] = ss?.addresses ?? [];
    const notReady: Obj[] = ss?.notReadyAddresses ?? [];
    if (addrs.length === 0 && notReady.length === 0) errs.push(fieldErrors.required(p, 'must specify `addresses` or `notReadyAddresses`'));
    addrs.forEach((a, j) => errs.push(...addressErrors(`${p}.addresses[${j}]`, a)));
    notReady.forEach((a, j) => errs.push(...addressErrors(`${p}.notReadyAddresses[${j}]`, a)));
    const ports: Obj[] = ss?.ports ?? [];
    const names = new Set<string>();
    ports.forEach((port, j) => {
      errs.push(...portErrors(`${p}.ports[${j}]`, port ?? {}, ports.length > 1, false));
      if (port?.name) {
        if (names.has(port.name)) errs.push(fieldErrors.duplicate(`${p}.ports[${j}].name`, port.name));
        names.add(port.name);
      }
    });
  });
  return errs;
}

function sliceAddressErrors(path: string, type: string, addr: string): FieldError[] {
  if (type === 'IPv4' || type === 'IPv6') {
    const ip = parseIP(addr);
    if (!ip || ip.family !== type) return [fieldErrors.invalid(path, addr, `must be a valid ${type} address`)];
    return specialIPErrors(addr).map((m) => fieldErrors.invalid(path, addr, m));
  }
  if (type === 'FQDN') {
    const errs: FieldError[] = [];
    const v = addr.replace(/\.$/, '');
    for (const m of validateDNS1123Subdomain(v.toLowerCase())) errs.push(fieldErrors.invalid(path, addr, m));
    if (!errs.length && v.split('.').length < 2) errs.push(fieldErrors.invalid(path, addr, 'should be a domain with at least two segments separated by dots'));
    return errs;
  }
  return [];
}

export function validateEndpointSlice(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const type = obj.addressType;
  if (!type) errs.push(fieldErrors.required('addressType', ''));
  else if (!ADDRESS_TYPES.includes(type)) errs.push(fieldErrors.notSupported('addressType', type, ADDRESS_TYPES));
  const eps: Obj[] = Array.isArray(obj.endpoints) ? obj.endpoints : [];
  if (eps.length > MAX_SLICE_ENDPOINTS) errs.push(fieldErrors.tooMany('endpoints', eps.length, MAX_SLICE_ENDPOINTS));
  eps.forEach((ep, i) => {
    const p = `endpoints[${i}]`;
    const addrs: string[] = Array.isArray(ep?.addresses) ? ep.addresses : [];
    if (addrs.length === 0) errs.push(fieldErrors.required(`${p}.addresses`, 'must contain at least 1 address'));
    else if (addrs.length > MAX_ENDPOINT_ADDRESSES) errs.push(fieldErrors.tooMany(`${p}.addresses`, addrs.length, MAX_ENDPOINT_ADDRESSES));
    else addrs.forEach((a, j) => errs.push(...sliceAddressErrors(`${p}.addresses[${j}]`, type, String(a))));
    if (ep?.hostname) for (const m of validateDNS1123Label(ep.hostname)) errs.push(fieldErrors.invalid(`${p}.hostname`, ep.hostname, m));
    if (ep?.nodeName) for (const m of validateDNS1123Subdomain(ep.nodeName)) errs.push(fieldErrors.invalid(`${p}.nodeName`, ep.nodeName, m));
    const zones: Obj[] = ep?.hints?.forZones ?? [];
    if (zones.length > 8) errs.push(fieldErrors.tooMany(`${p}.hints.forZones`, zones.length, 8));
  });
  const ports: Obj[] = Array.isArray(obj.ports) ? obj.ports : [];
  if (ports.length > MAX_SLICE_PORTS) errs.push(fieldErrors.tooMany('ports', ports.length, MAX_SLICE_PORTS));
  const names = new Set<string>();
  ports.forEach((port, i) => {
    errs.push(...portErrors(`ports[${i}]`, port ?? {}, false, true));
    const name = port?.name ?? '';
    if (names.has(name)) errs.push(fieldErrors.duplicate(`ports[${i}].name`, name));
    names.add(name);
  });
  return errs;
}

export function endpointsStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      defaultEndpointsPorts(obj);
    },
    validate(obj) {
      return [...base.validate(obj), ...validateEndpoints(obj)];
    },
  };
}

export function endpointSliceStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      defaultSlicePorts(obj);
    },
    validate(obj) {
      return [...base.validate(obj), ...validateEndpointSlice(obj)];
    },
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      dropDeprecatedTopology(obj, null);
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      dropDeprecatedTopology(obj, old);
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...immutable('addressType', obj.addressType, old.addressType)];
    },
  };
}

/** Endpoints ports default to TCP (the v1 defaulter). */
export function defaultEndpointsPorts(obj: Obj): void {
  if (!Array.isArray(obj.subsets)) return;
  for (const ss of obj.subsets) {
    if (!ss || typeof ss !== 'object' || !Array.isArray(ss.ports)) continue;
    for (const p of ss.ports) if (p && typeof p === 'object' && (p.protocol === undefined || p.protocol === '')) p.protocol = 'TCP';
  }
}

const HOSTNAME_LABEL = 'kubernetes.io/hostname';

/**
 * deprecatedTopology is not writable through discovery.k8s.io/v1: writes
 * drop it, except that an update leaving the endpoints as stored keeps
 * them; a node name kept there by the stored slice moves to nodeName.
 */
export function dropDeprecatedTopology(obj: Obj, old: Obj | null): void {
  if (!Array.isArray(obj.endpoints)) return;
  if (old && jsonEqual(obj.endpoints, old.endpoints)) return;
  const previous = new Set<string>();
  for (const ep of Array.isArray(old?.endpoints) ? old.endpoints : []) {
    const n = ep?.deprecatedTopology?.[HOSTNAME_LABEL];
    if (typeof n === 'string') previous.add(n);
  }
  for (const ep of obj.endpoints) {
    if (!ep || typeof ep !== 'object' || ep.deprecatedTopology === undefined) continue;
    const n = ep.deprecatedTopology?.[HOSTNAME_LABEL];
    if (ep.nodeName === undefined && typeof n === 'string' && previous.has(n) && validateDNS1123Subdomain(n).length === 0) ep.nodeName = n;
    delete ep.deprecatedTopology;
  }
}

/** Slice ports default to TCP and an empty name (the v1 defaulter). */
function defaultSlicePorts(obj: Obj): void {
  if (!Array.isArray(obj.ports)) return;
  for (const p of obj.ports) {
    if (!p || typeof p !== 'object') continue;
    if (p.name === undefined) p.name = '';
    if (p.protocol === undefined) p.protocol = 'TCP';
  }
}
