// Entry point of the watch cache: Cacher (see cacher.ts), one per resource type.
export { Cacher, TOO_OLD_WATCH, type CacherOptions } from './cacher.ts';
