import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding mcpspec's package.json, found from this file whether it runs from source or dist/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fixtures', 'schemas'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('mcpspec: cannot find the package root (fixtures/schemas is missing)');
    dir = parent;
  }
}
