// Build step (run by `npm run build` after tsc): the command-line program as a few ESM chunks in
// dist/cli/, with its dependencies inside. Loading some 200 modules one by one (resolving, reading
// and compiling each) took about a third of a short run's CPU; the chunks keep the lazy split of the
// command table (each command and fast-check, ajv, yargs load only when used). The package's `bin`
// points here; dist/bin/mcpspec.js stays the unbundled program (tests, the library, the Action).
// Paths the program finds at run time (package root, precompiled validators, the stdio relay, the
// fixtures) are looked up from the package root, so they work from either place.

import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../protocol/package-root.js';
import { CHECKS } from '../suites/catalogue.js';
import { CHECK_IDS_FILE } from './check-ids.js';

const root = packageRoot();
const outdir = join(root, 'dist', 'cli');
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { mcpspec: join(root, 'dist', 'bin', 'mcpspec.js') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // CommonJS dependencies (ajv, yargs' helpers) call require(); ESM output has none of its own.
  banner: { js: "import { createRequire as __mcpspecRequire } from 'node:module'; const require = __mcpspecRequire(import.meta.url);" },
});
// The check ids beside the program (bin/check-ids.ts): --only and --skip are validated without loading the suite.
writeFileSync(join(outdir, CHECK_IDS_FILE), `${JSON.stringify(CHECKS.map((c) => c.id))}\n`);
