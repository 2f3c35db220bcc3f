// Baseline check hostPathVolumes (1.0+): no hostPath volumes.

import { v1 } from '../api.ts';
import { type Check, type CheckPod, ALLOWED, forbidden } from './types.ts';
import { joinQuote, pluralize } from './util.ts';

export const HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

const hostPathVolumes_1_0: CheckPod = (_meta, spec) => {
  const bad = (spec.volumes ?? []).filter((v) => v.hostPath != null).map((v) => v.name ?? '');
  return bad.length ? forbidden('hostPath volumes', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}`) : ALLOWED;
};

export const hostPathVolumes: Check = { id: HOST_PATH_VOLUMES_ID, level: 'baseline', versions: [{ minVersion: v1(0), check: hostPathVolumes_1_0 }] };
