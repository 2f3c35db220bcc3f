// Starts the CustomResourceDefinition controller (runtime/controllers/crd/)
// on a watch of the stored CRDs, and resolves once every CRD stored when the
// server started has been looked at: their resources are served before
// /readyz passes, as kube-apiserver's crd-informer-synced and
// crd-discovery-available hooks ensure.

import { CrdController, CRD_GROUP } from '../controllers/crd/controller.ts';
import { CrdServing, type CrdServingDeps } from '../controllers/crd/serving.ts';
import type { ApiIndex } from '../registry/served.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

export interface RunningCrdController {
  controller: CrdController;
  stop(): Promise<void>;
}

export async function startCrdController(api: ApiIndex, deps: Omit<CrdServingDeps, 'api'>, log?: (msg: string) => void): Promise<RunningCrdController | undefined> {
  const crds = api.lookup(CRD_GROUP, 'v1', 'customresourcedefinitions');
  if (!crds) return undefined;
  const serving = new CrdServing({ ...deps, api });
  const controller = new CrdController(api, serving, { log });
  let synced: () => void = () => {};
  const firstSync = new Promise<void>((resolve) => (synced = resolve));
  const loop: WatchLoop = startWatchLoop(crds.store, '', {
    async resync(items) {
      for (const crd of items) controller.enqueue(crd.metadata.name);
      await controller.idle();
      synced();
    },
    event(ev) {
      controller.enqueue(ev.object.metadata.name);
    },
  });
  await firstSync;
  return {
    controller,
    async stop() {
      await loop.stop();
      await controller.stop();
      await serving.close();
    },
  };
}
