// npm packages installed on first use into .cache/<folder> (gitignored), for programs that must not be
// devDependencies: a Node 22 binary whose `node` bin would take over every npm script, clients that need
// Node 22 or bring their own copies of the SDK. One exact version each; the install is done once and
// marked complete, so an interrupted install is redone rather than half used.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../protocol/package-root.js';

/** The install folder of `spec` (an exact `name@version`), installing it first when needed; throws with npm's reason when it cannot. */
export function cachedPackage(spec: string, folder: string, options: { ignoreScripts?: boolean } = {}): string {
  const name = spec.slice(0, spec.lastIndexOf('@'));
  if (!name || !/^\d+\.\d+\.\d+$/.test(spec.slice(name.length + 1))) throw new Error(`${spec}: expected an exact name@x.y.z`);
  const prefix = join(packageRoot(), '.cache', folder);
  const root = join(prefix, 'node_modules', name);
  const marker = join(prefix, `.installed-${spec.replace(/[/@]/g, '_')}`);
  if (existsSync(marker) && existsSync(root)) return root;
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  const npm = process.env.npm_execpath;
  const [cmd, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  const flags = ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', ...(options.ignoreScripts ? ['--ignore-scripts'] : [])];
  try {
    execFileSync(cmd, [...args, ...flags, spec], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
  } catch (e) {
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim().split('\n').slice(-3).join(' ');
    throw new Error(`npm install ${spec} into .cache/${folder} failed${stderr ? `: ${stderr}` : ''}`);
  }
  if (!existsSync(root)) throw new Error(`npm install ${spec} left no ${root}`);
  writeFileSync(marker, `${spec}\n`);
  return root;
}
