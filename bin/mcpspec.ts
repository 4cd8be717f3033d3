#!/usr/bin/env node
// The entry point. `--version` and the top-level `--help` are answered here without loading yargs or
// any command; everything else goes to the parser, which loads only the command being run.
import * as nodeModule from 'node:module';
import { TOOL_VERSION } from '../protocol/tool-version.js';
import { topLevelHelp } from './command-table.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${TOOL_VERSION}\n`);
} else if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
  process.stdout.write(topLevelHelp());
} else {
  // Node >= 22.1 keeps the compiled code of the modules loaded next (the suite, its generators and
  // validators) in a cache in the temporary directory, so later runs start sooner; older Nodes lack it.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  import('./cli.js')
    .then(({ runCli }) => runCli(argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (e) => {
        console.error(`mcpspec: internal error: ${e instanceof Error ? e.stack : String(e)}`);
        process.exitCode = 2;
      },
    );
}
