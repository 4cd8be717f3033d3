// What the HTTP server mcpspec started (--start) printed: kept as server.log beside the report, and
// its last lines shown on stderr when the run fails or the server died, so a failure can be
// explained without running it again.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirs } from './target-args.js';

export const SERVER_LOG = 'server.log';
/** Lines shown on the console; server.log has the whole (bounded) output. */
const SHOWN_LINES = 20;

/** Write server.log into `out`; returns its path, or undefined (said on stderr) when it cannot be written. */
export function writeServerLog(out: string, output: string): string | undefined {
  const file = join(out, SERVER_LOG);
  try {
    makeDirs(out);
    writeFileSync(file, output);
    return file;
  } catch (e) {
    // Not thrown: the run's own outcome (or start failure) is what the user must see.
    process.stderr.write(`mcpspec: cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return undefined;
  }
}

/** The console's view of the output: a heading and its last lines, indented. */
export function serverOutputLines(output: string, log?: string): string[] {
  const lines = output.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  if (output.trim() === '') return [`the started server printed nothing${log ? ` (${log} is empty)` : ''}`];
  const shown = lines.slice(-SHOWN_LINES);
  const which = shown.length < lines.length ? `last ${shown.length} of ${lines.length} lines` : `${lines.length} line${lines.length === 1 ? '' : 's'}`;
  return [`the started server's output (${which}${log ? `; all of it in ${log}` : ''}):`, ...shown.map((l) => `  | ${l}`)];
}

/** Print the end of the output on stderr. */
export function showServerOutput(output: string, log?: string): void {
  process.stderr.write(`${serverOutputLines(output, log).join('\n')}\n`);
}
