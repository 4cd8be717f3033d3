// The environment an untrusted target gets: PATH, a temporary HOME and working directory, and only
// what the user passes (--env K=V, --pass-env K). mcpspec's own environment (CI secrets included)
// stays out of reach of tools that print their environment.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EnvOptions {
  /** Variables to set for the target. */
  set?: Record<string, string>;
  /** Names of mcpspec's own variables to pass through. */
  pass?: string[];
  /** Pass mcpspec's whole environment (opt-in, for targets that need it). */
  inheritAll?: boolean;
}

export interface TargetSandbox {
  home: string;
  cwd: string;
  env: Record<string, string>;
  /** Removes the temporary folders. Idempotent. */
  dispose(): void;
}

/** Create a temporary HOME and working directory and the minimal environment around them. */
export function makeSandbox(opts: EnvOptions = {}, cwd?: string): TargetSandbox {
  const root = mkdtempSync(join(tmpdir(), 'mcpspec-target-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(home);
  mkdirSync(work);
  const env: Record<string, string> = {};
  if (opts.inheritAll) {
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  }
  if (process.env.PATH !== undefined) env.PATH = process.env.PATH;
  env.HOME = home;
  env.TMPDIR = process.env.TMPDIR ?? tmpdir();
  for (const name of opts.pass ?? []) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  Object.assign(env, opts.set ?? {});
  let disposed = false;
  return {
    home,
    cwd: cwd ?? work,
    env,
    dispose() {
      if (disposed) return;
      disposed = true;
      rmSync(root, { recursive: true, force: true });
    },
  };
}
