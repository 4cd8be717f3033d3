// The options of `mcpspec server`, apart from the command itself, so `mcpspec server --help` loads
// neither the runner nor the catalogue.

import type { Argv } from 'yargs';
import { VERSION_CHOICES } from '../../protocol/versions.js';
import { BASELINE_OPTIONS, type BaselineArgs } from '../baseline-options.js';

export function serverOptions(y: Argv) {
  return y
    .usage('mcpspec server --stdio -- <command> [args...]\nmcpspec server --url http://127.0.0.1:3000/mcp\nmcpspec server --url http://127.0.0.1:{port}/mcp --start -- node server.js --port {port}')
    .option('stdio', { type: 'boolean', default: false, describe: 'start the server command given after -- and speak over its stdin/stdout' })
    .option('url', { type: 'string', describe: 'a Streamable HTTP endpoint' })
    .option('start', { type: 'boolean', default: false, describe: 'with --url: start the server command given after -- once before the run, wait until the URL accepts connections, stop it at the end ({port} = a free port, in --url, the command and --env values)' })
    .option('start-timeout', { type: 'string', describe: 'with --start: how long the server may take to accept connections (default: 3 x --timeout, 10s to 30s)' })
    .option('header', { type: 'array', string: true, describe: 'extra HTTP header "Name: value" (e.g. Authorization); its value is redacted in reports' })
    .option('spec-version', { type: 'string', default: 'auto', describe: `protocol version: ${VERSION_CHOICES.join(', ')}; auto probes with server/discover and falls back to initialize` })
    .option('only', { type: 'array', string: true, describe: 'run only checks whose id matches a glob (tools.*); an oracle (wire.schema) still judges every scenario not skipped' })
    .option('skip', { type: 'array', string: true, describe: 'skip checks whose id matches a glob' })
    .option('strict', { type: 'boolean', default: false, describe: 'SHOULD violations (warnings) fail the run' })
    .option('json', { type: 'boolean', default: false, describe: 'print NDJSON events instead of the console report' })
    .option('out', { type: 'string', describe: 'write report.json (and recording.json) into this folder' })
    .option('format', { type: 'array', string: true, describe: 'with --out, also write these: junit, sarif, markdown, html, tap, badge, shields, must-badge, must-shields (several at once, or comma-separated)' })
    .option('timeout', { type: 'string', default: '10s', describe: 'per-request timeout: silence is judged only after it (500ms, 10s, 2m; a plain number is ms)' })
    .option('tool-timeout', { type: 'string', describe: 'timeout for one generated tool call (default: --timeout)' })
    .option('deadline', { type: 'string', default: '5m', describe: 'the whole run ends by then' })
    .option('allow-destructive', { type: 'boolean', default: false, describe: 'also call tools not marked read-only / non-destructive' })
    .option('allow-open-world', { type: 'boolean', default: false, describe: 'also call tools marked openWorldHint (they may reach outside this machine)' })
    .option('env', { type: 'array', string: true, describe: 'set a variable for the target mcpspec starts (--stdio, --start): K=V (it gets only PATH, a temporary HOME and what you pass)' })
    .option('pass-env', { type: 'array', string: true, describe: "pass one of mcpspec's own variables to the target mcpspec starts (--stdio, --start) by name" })
    .option('seed', { type: 'number', describe: 'seed for generated inputs (printed, so a run can be repeated)' })
    .option('runs', { type: 'number', default: 20, describe: 'generated cases per property' })
    .option('concurrency', { type: 'number', default: 4, describe: 'scenarios run at once, each on its own session (1 = one after another)' })
    .option('shard', { type: 'string', describe: 'run shard i of n of the scenarios (1/4); merge the reports with mcpspec merge' })
    .options(BASELINE_OPTIONS)
    .option('color', { type: 'boolean', describe: 'colour the console report (default: when stdout is a terminal)' });
}

export interface ServerArgs extends BaselineArgs {
  stdio: boolean;
  url?: string;
  start?: boolean;
  'start-timeout'?: string;
  header?: string[];
  'spec-version': string;
  only?: string[];
  skip?: string[];
  strict: boolean;
  json: boolean;
  format?: string[];
  out?: string;
  timeout: string;
  'tool-timeout'?: string;
  deadline: string;
  'allow-destructive': boolean;
  'allow-open-world': boolean;
  env?: string[];
  'pass-env'?: string[];
  seed?: number;
  runs: number;
  concurrency: number;
  color?: boolean;
  shard?: string;
  '--'?: (string | number)[];
  _: (string | number)[];
}

