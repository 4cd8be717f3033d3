// Loads a CommonJS module through V8's code cache. The precompiled validators are a megabyte of
// generated code per schema: parsing it and compiling the validators a run uses took ~55 ms of a
// short run on Node 20, ~20 ms when V8 gets back the code it made last time. Node >= 22.1 has its
// own compile cache (module.enableCompileCache), but Node 20 and library users without it do not.
//
// The cache lives in a directory of the temporary folder that this user owns and no one else may
// write to (a file planted there by someone else is code). A file is named by a hash of the module's text,
// Node's and V8's versions and the architecture, because V8 itself checks only the source length.
// It is written once per process, at exit, so that it holds the functions compiled while running.
// NODE_DISABLE_COMPILE_CACHE (Node's own switch) turns it off.

import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Where the cache files go; undefined when the directory is not safely ours. */
export function codeCacheDir(base = tmpdir()): string | undefined {
  const uid = process.getuid?.();
  const dir = join(base, `mcpspec-code-cache-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

function cacheName(file: string, source: string): string {
  const h = createHash('sha256').update(`${process.version} ${process.versions.v8} ${process.arch}\0`).update(source).digest('hex');
  return `${basename(dirname(file))}-${basename(file)}-${h.slice(0, 32)}.bin`;
}

/** The function CommonJS wraps a module in (the newline keeps a trailing line comment from eating the brace). */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;

const pendingWrites = new Map<string, Script>();
let flushAtExit = false;

/** Writes the cache of every module loaded without a usable one; runs at exit. */
function flushCodeCache(): void {
  for (const [path, script] of pendingWrites) {
    try {
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      renameSync(tmp, path); // whole or not at all, also beside other runs doing the same
    } catch {
      // a cache that cannot be written only costs the next run its head start
    }
  }
  pendingWrites.clear();
}

export type CacheUse = 'hit' | 'miss' | 'rejected' | 'off';

/**
 * Loads a CommonJS module, using and then (at exit) refreshing its code cache in `cacheDir` (undefined:
 * none). Within one process V8 reuses what it compiled already, so 'hit' means something only on a
 * module's first load in a process.
 */
export function loadWithCodeCache(file: string, cacheDir: string | undefined): { exports: unknown; cache: CacheUse } {
  const source = readFileSync(file, 'utf8');
  const cachePath = cacheDir === undefined ? undefined : join(cacheDir, cacheName(file, source));
  let cachedData: Buffer | undefined;
  if (cachePath) {
    try {
      cachedData = readFileSync(cachePath);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new Script(wrap(source), { filename: file, cachedData });
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  if (!cachePath) return { exports: module.exports, cache: 'off' };
  if (cachedData !== undefined && !script.cachedDataRejected) return { exports: module.exports, cache: 'hit' };
  if (!flushAtExit) {
    flushAtExit = true;
    process.once('exit', flushCodeCache);
  }
  pendingWrites.set(cachePath, script);
  return { exports: module.exports, cache: cachedData === undefined ? 'miss' : 'rejected' };
}

const loaded = new Map<string, unknown>();

/** `require(file)` (once per process, like require) with its compiled code kept between runs in the user's cache directory. */
export function requireCached(file: string): unknown {
  if (!loaded.has(file)) loaded.set(file, loadWithCodeCache(file, process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : codeCacheDir()).exports);
  return loaded.get(file);
}
