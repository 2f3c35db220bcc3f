// Entry point of the watch cache: Cacher (see cacher.ts), one per resource type.
export { Cacher, type CacherOptions } from './cacher.ts';
