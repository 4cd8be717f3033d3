// Command-line arguments shared by the commands that start or reach a target (server, fuzz,
// replay, verify): target paths, headers, variables, durations, and the output folder.

import { existsSync, mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parseDuration } from '../protocol/duration.js';
import { UsageError } from './usage-error.js';

/** The target runs in a temporary working directory: file paths given relative to where mcpspec runs are made absolute. */
export function absoluteIfFile(arg: string): string {
  if (arg.startsWith('-') || isAbsolute(arg) || !/[/.]/.test(arg)) return arg;
  return existsSync(arg) ? resolve(arg) : arg;
}

/** `--header "Name: value"` entries. */
export function parseHeaders(list: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(':');
    if (i <= 0) throw new UsageError(`--header must look like "Name: value", got "${h}"`);
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return headers;
}

/** `--only` / `--skip` given without a glob would select everything (or nothing) silently. */
export function requireGlobs(only: string[] | undefined, skip: string[] | undefined): void {
  for (const [name, globs] of [['only', only], ['skip', skip]] as const) {
    if (globs && (globs.length === 0 || globs.some((g) => g.trim() === ''))) throw new UsageError(`--${name} needs a check id or glob, e.g. --${name} 'tools.*'`);
  }
}

/** Headers go on HTTP requests: a stdio target would silently never see them. */
export function noHeadersForStdio(header: string[] | undefined): void {
  if (header?.length) throw new UsageError('--header is for --url targets; a stdio server gets settings with --env K=V');
}

/** A Streamable HTTP endpoint: http or https. */
export function httpUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`--url is not a URL: ${url}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`--url must be http or https, got ${u.protocol}`);
  return url;
}

/** `--env NAME=value` entries. */
export function parseEnv(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new UsageError(`--env must look like NAME=value, got "${kv}"`);
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

export function duration(text: string, name: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`--${name} must be a duration like 500ms, 10s or 2m, got "${text}"`);
  return ms;
}

/**
 * mkdir -p, one level at a time: Node's recursive mkdir can spin forever under /proc, where a
 * folder can neither be made nor found.
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  let d = resolve(dir);
  while (!existsSync(d)) {
    missing.unshift(d);
    const parent = dirname(d);
    if (parent === d) break;
    d = parent;
  }
  if (!statSync(d).isDirectory()) throw Object.assign(new Error(`${d} is not a folder`), { code: 'ENOTDIR' });
  for (const m of missing) mkdirSync(m);
}

/** Fail before the run, not after it: the output folder must be creatable and writable (tried for real). */
export function checkOutDir(out: string): void {
  try {
    makeDirs(out);
    const probe = join(out, `.mcpspec-write-test-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (e) {
    throw new UsageError(`cannot write the report to ${out}: ${((e as NodeJS.ErrnoException).code ?? (e as Error).message)}`);
  }
}
