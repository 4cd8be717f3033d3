// The baseline options `mcpspec server` and `mcpspec client` share: known failures, in mcpspec's own
// JSON list or the official conformance suite's expected-failures YAML. Kept apart from the code
// that reads them, so `--help` loads no YAML parser.

import type { Options } from 'yargs';

export interface BaselineArgs {
  baseline?: string;
  'expected-failures'?: string;
  'strict-baseline': boolean;
}

export const BASELINE_OPTIONS = {
  baseline: { type: 'string', describe: 'a JSON list of { id, reason } expected to fail: only a new failure fails the run (write one with mcpspec baseline)' },
  'expected-failures': { type: 'string', describe: "the official conformance suite's expected-failures YAML (server: and client: lists of scenario or scenario:check-id): a baseline of the mcpspec checks that judge the same rules" },
  'strict-baseline': { type: 'boolean', default: false, describe: 'a baseline entry that now passes (stale) fails the run too' },
} as const satisfies Record<string, Options>;
