// `mcpspec mutate <mutation> --stdio -- <server command>` or `--url URL`: a proxy that breaks exactly
// one rule in a real target's traffic and passes everything else on untouched. Over stdio it is the
// server its client starts; over HTTP it listens on 127.0.0.1 and prints one line, `listening URL`.
// `--list` prints the catalogue. A server author sees which of their tests notice a broken rule; a
// client author points a client at a misbehaving copy of a real server.

import type { Argv } from 'yargs';
import { MUTATIONS, mutationById } from '../../mutation/catalogue.js';
import { MutatingHttpProxy } from '../../mutation/http-proxy.js';
import { Mutator } from '../../mutation/mutator.js';
import { runStdioProxy } from '../../mutation/stdio-proxy.js';
import { absoluteIfFile, httpUrl } from '../target-args.js';
import { UsageError } from '../usage-error.js';

interface MutateArgs {
  mutation?: string;
  list: boolean;
  format: string;
  stdio: boolean;
  url?: string;
  port: number;
  'applied-log'?: string;
  role?: string;
  '--'?: (string | number)[];
}

export function mutateOptions(y: Argv): Argv {
  return y
    .positional('mutation', { type: 'string', describe: 'the id of the mutation to apply (see --list)' })
    .option('list', { type: 'boolean', default: false, describe: 'print the mutation catalogue and exit' })
    .option('format', { type: 'string', choices: ['text', 'json'], default: 'text', describe: 'with --list: text or json' })
    .option('role', { type: 'string', choices: ['server', 'client'], describe: 'with --list: only the mutations of this side' })
    .option('stdio', { type: 'boolean', default: false, describe: 'be a stdio server: start the command after -- and proxy its stdin and stdout' })
    .option('url', { type: 'string', describe: 'proxy this Streamable HTTP endpoint; prints "listening URL" once ready' })
    .option('port', { type: 'number', default: 0, describe: 'with --url: the port to listen on (0: any free one)' })
    .option('applied-log', { type: 'string', describe: 'append one JSON line to this file each time the mutation changes the traffic' })
    .usage('mcpspec mutate <mutation> --stdio -- <server command>\nmcpspec mutate <mutation> --url http://127.0.0.1:3000/mcp\nmcpspec mutate --list');
}

function printList(args: MutateArgs): void {
  const chosen = MUTATIONS.filter((m) => !args.role || m.role === args.role);
  if (args.format === 'json') {
    const records = chosen.map(({ id, requirements, related, role, eras, transports, description }) => ({ id, requirements, related: related ?? [], role, eras, transports, description }));
    process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
    return;
  }
  const w = Math.max(...chosen.map((m) => m.id.length));
  for (const m of chosen) process.stdout.write(`${m.id.padEnd(w)}  ${m.role.padEnd(6)}  ${m.requirements.join(',').padEnd(14)}  ${m.eras.join('+').padEnd(13)}  ${m.transports.join('+').padEnd(10)}  ${m.description}\n`);
  process.stdout.write(`${chosen.length} mutations\n`);
}

export async function runMutate(args: MutateArgs): Promise<number> {
  if (args.list) {
    printList(args);
    return 0;
  }
  if (!args.mutation) throw new UsageError('name a mutation (mcpspec mutate --list shows them)');
  const m = mutationById(args.mutation);
  if (!m) throw new UsageError(`unknown mutation "${args.mutation}" (mcpspec mutate --list shows them)`);
  const words = (args['--'] ?? []).map(String);
  if (args.stdio === Boolean(args.url)) throw new UsageError('give either --stdio -- <server command> or --url URL');
  if (args.stdio) {
    if (!words.length) throw new UsageError('--stdio needs the server command after --');
    if (!m.transports.includes('stdio')) throw new UsageError(`${m.id} is a mutation of HTTP traffic only`);
    const [command, ...rest] = words;
    const code = await runStdioProxy(new Mutator(m, 'stdio', args['applied-log']), command, rest.map(absoluteIfFile));
    // Exit with the server: nothing of ours (a half-read stdin) may keep the process alive after it.
    process.exit(code);
  }
  if (words.length) throw new UsageError('--url takes no command after --');
  if (!m.transports.includes('http')) throw new UsageError(`${m.id} is a mutation of stdio traffic only`);
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) throw new UsageError(`--port must be a port number, got ${args.port}`);
  const proxy = new MutatingHttpProxy(new Mutator(m, 'http', args['applied-log']), httpUrl(String(args.url)));
  const url = await proxy.listen(args.port);
  process.stdout.write(`listening ${url}\n`);
  await new Promise<void>((resolve) => {
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(s, () => resolve());
  });
  await proxy.close();
  return 0;
}
