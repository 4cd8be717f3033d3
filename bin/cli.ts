import { TOOL_VERSION } from '../protocol/tool-version.js';
import { COMMANDS, commandName } from './command-table.js';
import { UsageError } from './usage-error.js';

/** Parse and run one mcpspec command line; resolves to the process exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const { default: yargs } = await import('yargs');
  let failure: string | undefined;
  let failureCode = 2;
  let code = 0;
  // Only the command being run is loaded; the others are listed by name for help and suggestions.
  const wanted = argv.find((a) => !a.startsWith('-'));
  const parser = yargs(argv)
    .parserConfiguration({ 'populate--': true })
    .scriptName('mcpspec')
    .wrap(null);
  for (const entry of COMMANDS) {
    if (commandName(entry) === wanted) {
      const loaded = await entry.load();
      // strict inside the command too: yargs does not carry a later top-level .strict() into builders
      parser.command(entry.command, entry.describe, (y) => loaded.builder(y.strict()), async (a) => {
        const r = await loaded.handler(a as never);
        if (typeof r === 'number') code = r;
      });
    } else parser.command(entry.command, entry.describe);
  }
  parser
    .demandCommand(1, 'say which command to run')
    .recommendCommands()
    .strict()
    .help()
    .version(TOOL_VERSION)
    .fail((msg, err) => {
      // Throw, so that yargs stops here: a fail handler that returns lets it run the command anyway.
      throw err ?? new UsageError(msg.split('\n').map((l) => l.trim()).filter(Boolean).join(' '));
    });
  try {
    await parser.parseAsync();
  } catch (e) {
    if (e instanceof UsageError) {
      failure = e.message;
      failureCode = e.exitCode;
    } else throw e;
  }
  if (failure !== undefined) {
    console.error(`mcpspec: ${failure}`);
    return failureCode;
  }
  if (code !== 0) return code;
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}
