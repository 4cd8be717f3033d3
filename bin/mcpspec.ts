#!/usr/bin/env node
import { runCli } from './cli.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(`mcpspec: internal error: ${e instanceof Error ? e.stack : String(e)}`);
    process.exitCode = 2;
  },
);
