// The environment an untrusted target gets: PATH, a temporary HOME and working directory, and only
// what the user passes (--env K=V, --pass-env K). mcpspec's own environment (CI secrets included)
// stays out of reach of tools that print their environment.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../protocol/package-root.js';

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

/** The headless browser program, compiled: beside this module in dist/, or in dist/ when this runs from source (tests). */
const BROWSER_PROGRAM = ((): string => {
  const beside = fileURLToPath(new URL('./headless-browser.js', import.meta.url));
  return existsSync(beside) ? beside : join(packageRoot(), 'dist', 'runner', 'headless-browser.js');
})();
/** The names clients and their opener libraries look for on PATH (and `BROWSER`). */
const BROWSER_NAMES = ['xdg-open', 'x-www-browser', 'sensible-browser', 'www-browser', 'open'];

/**
 * Give a sandbox a browser that approves at once (runner/headless-browser.ts): shims under those
 * names first on its PATH, and BROWSER pointing at one, for clients that authorize by opening a URL.
 * With `reportUrl`, the browser says there what became of each visit (whether the client's callback
 * took the redirect).
 */
export function withHeadlessBrowser(sandbox: TargetSandbox, reportUrl?: string): void {
  const bin = join(sandbox.home, '.mcpspec-browser');
  mkdirSync(bin, { recursive: true });
  const report = reportUrl ? ` "${reportUrl}"` : '';
  const script = `#!/bin/sh\nexec "${process.execPath}" "${BROWSER_PROGRAM}" "$1"${report}\n`;
  for (const name of BROWSER_NAMES) writeFileSync(join(bin, name), script, { mode: 0o755 });
  sandbox.env.PATH = [bin, sandbox.env.PATH].filter(Boolean).join(delimiter);
  sandbox.env.BROWSER = join(bin, 'x-www-browser');
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
