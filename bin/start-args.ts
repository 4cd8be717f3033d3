// `--url <endpoint> --start -- <command>`: an HTTP server mcpspec starts itself. The rules of these
// flags are the same for every command that has them (server, fuzz, replay); when the server is
// started differs (once per run, or afresh per sequence).

import { PORT_PLACEHOLDER, usesPortPlaceholder, type StartCommand } from '../runner/started-server.js';
import { absoluteIfFile } from './target-args.js';
import { UsageError } from './usage-error.js';

export interface StartFlags {
  url?: string;
  start?: boolean;
}

/**
 * The usage mistakes --start adds, given the words after --: `example` is the command's own usage
 * line for --start. Nothing to check without --url, apart from a --start that needs one.
 */
export function checkStartFlags(args: StartFlags, command: string[], example: string): void {
  if (args.start && !args.url) throw new UsageError(`--start goes with --url: ${example}`);
  if (!args.url) return;
  if (command.length && !args.start) throw new UsageError('a command after -- needs --stdio (or --start with --url)');
  if (args.start && command.length === 0) throw new UsageError('--start needs the server command after --');
  if (!args.start && usesPortPlaceholder(args.url, { command: '', args: [] })) throw new UsageError(`${PORT_PLACEHOLDER} in --url needs --start -- <command>`);
  // mcpspec waits for the URL's port: a free port only the command knows would never be waited for.
  if (args.start && !args.url.includes(PORT_PLACEHOLDER) && usesPortPlaceholder('', { command: command[0], args: command.slice(1) })) {
    throw new UsageError(`${PORT_PLACEHOLDER} in the command needs ${PORT_PLACEHOLDER} in --url too (mcpspec waits until the URL's port accepts connections)`);
  }
}

/** `--start -- <cmd>`: the command that starts the HTTP server, paths made absolute (it runs in a temporary folder). */
export function startCommandOf(args: { start?: boolean; '--'?: (string | number)[] }): StartCommand | undefined {
  if (!args.start) return undefined;
  const command = (args['--'] ?? []).map(String);
  return { command: absoluteIfFile(command[0]), args: command.slice(1).map(absoluteIfFile) };
}
