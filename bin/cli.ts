import yargs from 'yargs';
import { demoCommand, runDemo } from './commands/demo.js';
import { fuzzOptions, runFuzzCommand, type FuzzArgs } from './commands/fuzz.js';
import { replayOptions, runReplayCommand, type ReplayArgs } from './commands/replay.js';
import { listOptions, runList } from './commands/list.js';
import { schemaCommand } from './commands/schema.js';
import { runServerCommand, serverOptions, type ServerArgs } from './commands/server.js';
import { UsageError } from './usage-error.js';

/** Parse and run one mcpspec command line; resolves to the process exit code. */
export async function runCli(argv: string[]): Promise<number> {
  let failure: string | undefined;
  let code = 0;
  const parser = yargs(argv)
    .parserConfiguration({ 'populate--': true })
    .scriptName('mcpspec')
    .command('schema', 'generate or validate messages from the MCP JSON Schemas', schemaCommand)
    .command('server', 'test an MCP server over stdio (--stdio -- <command>) or Streamable HTTP (--url)', serverOptions, async (a) => {
      code = await runServerCommand(a as unknown as ServerArgs);
    })
    .command('fuzz', 'fuzz a server with generated sequences of requests; findings are shrunk and saved as repro files', fuzzOptions, async (a) => {
      code = await runFuzzCommand(a as unknown as FuzzArgs);
    })
    .command('replay <repro>', 'replay a repro file: exit 1 while the bug is still there, 0 once fixed', replayOptions, async (a) => {
      code = await runReplayCommand(a as unknown as ReplayArgs);
    })
    .command('list', 'print the check catalogue: id, level, requirement IDs, title', listOptions, (a) => runList(a as never))
    .command('demo', 'print generated valid and near-valid MCP messages with their violation labels', demoCommand, (a) => runDemo({ seed: Number(a.seed), n: Number(a.n) }))
    .command((await import('./commands/report.js')).reportCommand)
    .demandCommand(1, 'say which command to run')
    .strict()
    .help()
    .version(false)
    .fail((msg, err) => {
      if (err && !(err instanceof UsageError)) throw err;
      failure = err?.message ?? msg;
    });
  try {
    await parser.parseAsync();
  } catch (e) {
    if (e instanceof UsageError) failure = e.message;
    else throw e;
  }
  if (failure !== undefined) {
    console.error(`mcpspec: ${failure}`);
    return 2;
  }
  if (code !== 0) return code;
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}
