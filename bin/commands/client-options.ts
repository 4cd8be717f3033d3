// The options of `mcpspec client`, apart from the command itself, so `mcpspec client --help` loads
// neither the runner nor the catalogue.

import type { Argv } from 'yargs';
import { VERSION_CHOICES } from '../../protocol/versions.js';
import { BASELINE_OPTIONS, type BaselineArgs } from '../baseline-options.js';

export const CLIENT_USAGE = [
  'mcpspec client --http -- <client command containing {url}>',
  'mcpspec client --stdio -- <client command containing {server} or {server-json}>',
  'mcpspec client --http --official-harness -- <harness written for the official conformance suite>',
  'mcpspec client --command "<harness command, as given to the official suite>"',
  '',
  'mcpspec plays a scripted MCP server and starts the client afresh for each scenario (MCPSPEC_SCENARIO names it):',
  '  --http: mcpspec listens on 127.0.0.1; {url} is its endpoint (the scenario is in the path).',
  '  --stdio: {server} becomes several words, a command that starts mcpspec\'s scripted server over stdio',
  '           (everything it needs is in its arguments); {server-json} is the same as {"command","args"} JSON.',
  'The client must connect, do its work and exit; what it sends is judged. Its stdin stays open (nothing is',
  'written to it) until it exits, as in a terminal: clients that quit at the end of their input keep running.',
  'Where its authorization server has no registration (client-authorization-pre-registered), the client gets',
  'pre-registered credentials in MCPSPEC_CLIENT_CREDENTIALS ({"client_id","client_secret","issuer"} JSON).',
  '',
  'Examples (inspector-cli reads ../package.json from its working directory: --cwd names a folder inside a package):',
  '  mcpspec client --http --cwd test -- npx @modelcontextprotocol/inspector-cli --cli {url} --transport http --method tools/list',
  '  mcpspec client --stdio --cwd test -- npx @modelcontextprotocol/inspector-cli --cli {server} --method tools/list',
  '  mcpspec client --http -- node_modules/.bin/mcp-remote-client {url}    (after npm install mcp-remote@0.15.1)',
  '',
  'A harness written for the official suite (--official-harness, or --command) gets the server URL as its last',
  'argument and MCP_CONFORMANCE_SCENARIO (the official scenario that fits each mcpspec scenario),',
  'MCP_CONFORMANCE_PROTOCOL_VERSION and, where that suite passes one, MCP_CONFORMANCE_CONTEXT; it runs in the',
  'current folder. --command runs its string through the shell with the URL appended, as that suite does.',
  '  mcpspec client --command "npx tsx src/everythingClient.ts" --spec-version 2026-07-28',
].join('\n');

export function clientOptions(y: Argv) {
  return y
    .usage(CLIENT_USAGE)
    .option('http', { type: 'boolean', default: false, describe: 'the client speaks Streamable HTTP to {url}' })
    .option('stdio', { type: 'boolean', default: false, describe: 'the client starts {server} and speaks over its stdin/stdout' })
    .option('official-harness', { type: 'boolean', default: false, describe: 'the client is a harness written for the official conformance suite: URL last, MCP_CONFORMANCE_* variables (HTTP)' })
    .option('command', { type: 'string', describe: 'the harness command as one string, as the official suite takes it (implies --http --official-harness)' })
    .option('spec-version', { type: 'string', default: 'auto', describe: `protocol version the client is judged by: ${VERSION_CHOICES.join(', ')}; auto = what the client speaks first` })
    .option('only', { type: 'array', string: true, describe: 'run only checks whose id matches a glob (client.mrtr-*)' })
    .option('skip', { type: 'array', string: true, describe: 'skip checks whose id matches a glob' })
    .option('strict', { type: 'boolean', default: false, describe: 'SHOULD violations (warnings) fail the run' })
    .option('json', { type: 'boolean', default: false, describe: 'print NDJSON events instead of the console report' })
    .option('out', { type: 'string', describe: 'write report.json (and recording.json) into this folder' })
    .option('format', { type: 'array', string: true, describe: 'with --out, also write these: junit, sarif, markdown, html, tap, badge, shields, must-badge, must-shields' })
    .option('timeout', { type: 'string', default: '10s', describe: 'how long one client run may take before it is stopped as hung (500ms, 10s, 2m)' })
    .option('deadline', { type: 'string', default: '5m', describe: 'the whole run ends by then' })
    .option('env', { type: 'array', string: true, describe: 'set a variable for the client: K=V (it gets only PATH, a temporary HOME, MCPSPEC_SCENARIO, MCPSPEC_CLIENT_CREDENTIALS where a scenario gives them, and what you pass)' })
    .option('pass-env', { type: 'array', string: true, describe: "pass one of mcpspec's own variables to the client by name" })
    .option('cwd', { type: 'string', describe: 'working directory of the client (default: a fresh temporary folder)' })
    .option('seed', { type: 'number', describe: 'seed for generated answers (printed, so a run can be repeated)' })
    .option('concurrency', { type: 'number', default: 4, describe: 'scenarios run at once, each with its own client process' })
    .options(BASELINE_OPTIONS)
    .option('color', { type: 'boolean', describe: 'colour the console report (default: when stdout is a terminal)' });
}

export interface ClientArgs extends BaselineArgs {
  http: boolean;
  stdio: boolean;
  'official-harness': boolean;
  command?: string;
  'spec-version': string;
  only?: string[];
  skip?: string[];
  strict: boolean;
  json: boolean;
  out?: string;
  format?: string[];
  timeout: string;
  deadline: string;
  env?: string[];
  'pass-env'?: string[];
  cwd?: string;
  seed?: number;
  concurrency: number;
  color?: boolean;
  '--'?: (string | number)[];
  _: (string | number)[];
}
