// The commands, their one-line descriptions, and how to load each: only the command being run is
// imported (so `mcpspec list` never loads the runner, and `--version` loads nothing at all).

import type { Argv } from 'yargs';

export interface LoadedCommand {
  builder: (y: Argv) => Argv;
  /** Resolves to the exit code (undefined: 0 unless process.exitCode says otherwise). */
  handler: (args: never) => Promise<number | void> | number | void;
}

export interface CommandEntry {
  /** yargs command string: name and positionals. */
  command: string;
  describe: string;
  load: () => Promise<LoadedCommand>;
}

export const COMMANDS: CommandEntry[] = [
  {
    command: 'server',
    describe: 'test an MCP server over stdio (--stdio -- <command>) or Streamable HTTP (--url)',
    load: async () => {
      const m = await import('./commands/server-options.js');
      const run = async (a: never) => (await import('./commands/server.js')).runServerCommand(a);
      return { builder: m.serverOptions as never, handler: run as never };
    },
  },
  {
    command: 'client',
    describe: 'test an MCP client: mcpspec plays a scripted server (--http -- <cmd with {url}> or --stdio -- <cmd with {server}>)',
    load: async () => {
      const m = await import('./commands/client-options.js');
      const run = async (a: never) => (await import('./commands/client.js')).runClientCommand(a);
      return { builder: m.clientOptions as never, handler: run as never };
    },
  },
  {
    command: 'verify [report]',
    describe: "re-run a report's recorded options against a target you name and compare verdicts check by check",
    load: async () => {
      const m = await import('./commands/verify.js');
      return { builder: m.verifyOptions as never, handler: m.runVerify as never };
    },
  },
  {
    command: 'baseline [report]',
    describe: "print a baseline (expected failures, for server or client --baseline) from a report's failures",
    load: async () => {
      const m = await import('./commands/baseline.js');
      return { builder: m.baselineOptions as never, handler: m.runBaseline as never };
    },
  },
  {
    command: 'merge [reports..]',
    describe: 'merge the report.json files of the shards of a run (server --shard i/n) into one report',
    load: async () => {
      const m = await import('./commands/report-merge.js');
      return { builder: m.mergeOptions as never, handler: m.runMerge as never };
    },
  },
  {
    command: 'fuzz [role]',
    describe: 'fuzz a server with generated sequences of requests (fuzz client: a client, with near-valid answers); findings are shrunk and saved as repro files',
    load: async () => {
      const m = await import('./commands/fuzz.js');
      return { builder: m.fuzzOptions as never, handler: m.runFuzzCommand as never };
    },
  },
  {
    command: 'replay <repro>',
    describe: 'replay a repro file: exit 1 while the bug is still there, 0 once fixed',
    load: async () => {
      const m = await import('./commands/replay.js');
      return { builder: m.replayOptions as never, handler: m.runReplayCommand as never };
    },
  },
  {
    command: 'report <reports..>',
    describe: 'render report.json files as junit, sarif, markdown, html (a matrix for several), badge, shields, must-badge, must-shields, tap or json; report merge joins shards',
    load: async () => {
      const m = await import('./commands/report.js');
      const c = m.reportCommand;
      return { builder: c.builder as never, handler: c.handler as never };
    },
  },
  {
    command: 'mutate [mutation]',
    describe: "a proxy that breaks exactly one rule in a real server's (or client's) traffic: --stdio -- <server command> or --url URL; --list the mutations",
    load: async () => {
      const m = await import('./commands/mutate.js');
      return { builder: m.mutateOptions as never, handler: m.runMutate as never };
    },
  },
  {
    command: 'list',
    describe: 'print the check catalogue: id, level, requirement IDs, title',
    load: async () => {
      const m = await import('./commands/list.js');
      return { builder: m.listOptions as never, handler: m.runList as never };
    },
  },
  {
    command: 'schema',
    describe: 'generate or validate messages from the MCP JSON Schemas, or compare two schemas',
    load: async () => {
      const m = await import('./commands/schema.js');
      return { builder: m.schemaCommand as never, handler: () => undefined };
    },
  },
  {
    command: 'demo',
    describe: 'print generated valid and near-valid MCP messages with their violation labels',
    load: async () => {
      const m = await import('./commands/demo.js');
      return { builder: m.demoCommand as never, handler: ((a: { seed: unknown; n: unknown }) => m.runDemo({ seed: Number(a.seed), n: Number(a.n) })) as never };
    },
  },
];

/** The name of a command string ('verify <report>' -> 'verify'). */
export function commandName(e: CommandEntry): string {
  return e.command.split(' ')[0];
}

/** The top-level help, printed without loading yargs (kept in step with yargs' own by a test). */
export function topLevelHelp(): string {
  const names = COMMANDS.map((c) => `mcpspec ${commandName(c)}`);
  const w = Math.max(...names.map((n) => n.length));
  return [
    'mcpspec <command>',
    '',
    'Commands:',
    ...COMMANDS.map((c, i) => `  ${names[i].padEnd(w)}  ${c.describe}`),
    '',
    'Options:',
    '  --help     Show help  [boolean]',
    '  --version  Show version number  [boolean]',
    '',
    'mcpspec <command> --help shows the options of a command.',
    '',
  ].join('\n');
}
