// Build step (run by `npm run build` after tsc): the command-line program as a few ESM chunks in
// dist/cli/, with its dependencies inside. Loading some 200 modules one by one (resolving, reading
// and compiling each) took about a third of a short run's CPU; the chunks keep the lazy split of the
// command table (each command and fast-check, ajv, yargs load only when used). The package's `bin`
// points here; dist/bin/mcpspec.js stays the unbundled program (tests, the library, the Action).
// Paths the program finds at run time (package root, precompiled validators, the stdio relay, the
// fixtures) are looked up from the package root, so they work from either place.

import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../protocol/package-root.js';
import { buildRequestValidators } from '../fixtures/servers/reference/build-validators.js';
import { CHECKS } from '../suites/catalogue.js';
import { CHECK_IDS_FILE } from './check-ids.js';

const root = packageRoot();
const outdir = join(root, 'dist', 'cli');
rmSync(outdir, { recursive: true, force: true });
// CommonJS dependencies (ajv, yargs' helpers) call require(); ESM output has none of its own.
const REQUIRE_BANNER = "import { createRequire as __mcpspecRequire } from 'node:module'; const require = __mcpspecRequire(import.meta.url);";
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
  banner: { js: REQUIRE_BANNER },
});
// The check ids beside the program (bin/check-ids.ts): --only and --skip are validated without loading the suite.
writeFileSync(join(outdir, CHECK_IDS_FILE), `${JSON.stringify(CHECKS.map((c) => c.id))}\n`);

// The reference server's request validators, compiled ahead beside it: compiling them was ~90 ms of
// every fixture process's first requests.
buildRequestValidators(join(root, 'fixtures', 'schemas'), join(root, 'dist', 'fixtures', 'servers', 'reference'));

// The reference server is started hundreds of times by the tests, by `npm start` and by the stress
// bench. Its entry is replaced by one file holding it and ajv: it answers its first request ~90 ms
// sooner than when Node loads its ~100 modules one by one. The other compiled modules stay beside it
// (the tests import them). tsc writes the plain entry again on every build; a bundled one is left.
const BUNDLED_MARK = '// mcpspec: reference server bundled';
const fixtureMain = join(root, 'dist', 'fixtures', 'servers', 'reference', 'main.js');
if (!readFileSync(fixtureMain, 'utf8').includes(BUNDLED_MARK)) {
  await build({
    entryPoints: [fixtureMain],
    outfile: fixtureMain,
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    banner: { js: `${BUNDLED_MARK}\n${REQUIRE_BANNER}` },
  });
}
