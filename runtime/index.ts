// The package's public entry point: start a server in-process.
export { startServer } from './server/start.ts';
export type { RunningServer, StartOptions } from './server/start.ts';
