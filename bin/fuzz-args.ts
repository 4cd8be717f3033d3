// What `mcpspec fuzz` and `mcpspec replay` are told about the server: its parsed arguments, the
// target (--stdio -- <cmd> or --url) and the command that starts an HTTP server afresh (--start).

import type { ServerTarget } from '../runner/server-driver.js';
import { urlForValidation } from '../runner/started-server.js';
import { checkStartFlags } from './start-args.js';
import { absoluteIfFile, httpUrl, noHeadersForStdio, parseHeaders } from './target-args.js';
import { UsageError } from './usage-error.js';

export { startCommandOf } from './start-args.js';

export interface FuzzArgs {
  role?: string;
  stdio: boolean;
  http?: boolean;
  url?: string;
  start?: boolean;
  header?: string[];
  'spec-version': string;
  runs?: number;
  time?: string;
  deadline?: string;
  differential?: string;
  'http-args'?: string;
  'shrink-share'?: number;
  seed?: number;
  methods?: string[];
  'skip-methods'?: string[];
  'skip-tool'?: string[];
  'allow-destructive': boolean;
  'allow-open-world': boolean;
  timeout: string;
  'max-length': number;
  concurrency: number;
  out?: string;
  json: boolean;
  env?: string[];
  'pass-env'?: string[];
  '--'?: (string | number)[];
}

/** The server to fuzz or replay against: --stdio -- <cmd> or --url (with --start -- <cmd>: started afresh for each run). */
export function serverTargetOf(args: { stdio?: boolean; url?: string; start?: boolean; header?: string[]; '--'?: (string | number)[] }, command = (args['--'] ?? []).map(String)): ServerTarget {
  if (args.stdio && args.url) throw new UsageError('give either --stdio -- <command> or --url, not both');
  checkStartFlags(args, command, 'mcpspec fuzz --url <endpoint> --start -- <command>');
  if (args.url) {
    httpUrl(urlForValidation(args.url));
    return { kind: 'http', url: args.url, headers: parseHeaders(args.header ?? []) };
  }
  if (command.length === 0) throw new UsageError('say which server: --stdio -- <command> or --url <endpoint>');
  noHeadersForStdio(args.header);
  return { kind: 'stdio', command: absoluteIfFile(command[0]), args: command.slice(1).map(absoluteIfFile) };
}
