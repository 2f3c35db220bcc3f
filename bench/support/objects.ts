// The objects the benches create: ConfigMaps of about 1.1 KB as the server
// serializes them (name, two labels, a 600-byte value, plus what the server
// adds: uid, timestamps, managedFields).

export const configMapOf1KB = (i: number) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `cm-${String(i).padStart(6, '0')}`, labels: { app: 'bench', shard: String(i % 10) } },
  data: { payload: 'x'.repeat(600) },
});
