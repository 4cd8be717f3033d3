import type { Argv } from 'yargs';
import { describeFuzzStep } from '../../arbitraries/fuzz-sequences.js';
import { HandshakeError } from '../../runner/base-session.js';
import { readRepro, replay, ReproFormatError } from '../../fuzz/replay.js';
import { TargetStartError } from '../../runner/transport.js';
import { UsageError } from '../usage-error.js';
import { readFileSync } from 'node:fs';
import { clientReproProblem, isClientRepro, replayClient, type ClientRepro } from '../../fuzz/client-campaign.js';
import { clientTargetOf } from './client.js';
import { duration } from '../target-args.js';
import { serverTargetOf, startCommandOf } from '../fuzz-args.js';

export function replayOptions(y: Argv) {
  return y
    .usage('mcpspec replay repro.json [--stdio -- <command> | --url URL [--start -- <command>]]\nmcpspec replay client-repro.json [--http -- <client command with {url}> | --stdio -- <client command with {server}>]\n(without a target: the one the repro was found on)')
    .positional('repro', { type: 'string', describe: 'a repro file written by mcpspec fuzz --out' })
    .option('stdio', { type: 'boolean', default: false, describe: 'replay against this command (after --) instead' })
    .option('url', { type: 'string', describe: 'replay against this Streamable HTTP endpoint instead' })
    .option('http', { type: 'boolean', default: false, describe: 'a client repro: replay with this client command (after --, with {url}) instead' })
    .option('start', { type: 'boolean', default: false, describe: 'with --url: start the server command given after -- for the replay ({port} = a free port)' })
    .option('header', { type: 'array', string: true, describe: 'extra HTTP header "Name: value"' })
    .option('timeout', { type: 'string', describe: "per-request timeout (default: the repro's)" })
    .option('json', { type: 'boolean', default: false, describe: 'print the outcome as one JSON line' });
}

export interface ReplayArgs {
  repro?: string;
  stdio: boolean;
  http?: boolean;
  url?: string;
  start?: boolean;
  header?: string[];
  timeout?: string;
  json: boolean;
  '--'?: (string | number)[];
}

/** Replay a repro: 1 while the bug is still there, 0 once it is fixed. */
export async function runReplayCommand(args: ReplayArgs): Promise<number> {
  if (!args.repro) throw new UsageError('say which repro file to replay: mcpspec replay repro.json');
  const command = (args['--'] ?? []).map(String);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(args.repro, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read the repro ${args.repro}: ${(e as Error).message}`);
  }
  if (isClientRepro(data)) return replayClientCommand(args, data, command);
  if (args.http) throw new UsageError('--http replays a client repro; this repro is a server one (--stdio or --url)');
  const target = args.url || command.length || args.stdio ? serverTargetOf(args, command) : undefined;
  try {
    const repro = readRepro(args.repro);
    const r = await replay(repro, target, { timeoutMs: args.timeout !== undefined ? duration(args.timeout, 'timeout') : undefined, start: startCommandOf(args) });
    const same = r.observations.filter((o) => o.key === repro.finding.key);
    if (args.json) {
      console.log(JSON.stringify({ type: 'replay', repro: args.repro, finding: repro.finding, reproduced: r.reproduced, observations: r.observations }));
    } else {
      console.log(`replaying ${repro.finding.oracle} at ${repro.finding.method} (${repro.steps.length} step${repro.steps.length === 1 ? '' : 's'}):`);
      repro.steps.forEach((s, i) => console.log(`  ${i + 1}. ${describeFuzzStep(s)}`));
      console.log(r.reproduced ? `still there: ${same[0].message}` : `fixed: ${repro.finding.oracle} at ${repro.finding.method} no longer happens`);
      const others = r.observations.filter((o) => o.key !== repro.finding.key);
      for (const o of others) console.log(`  also seen: ${o.oracle} at ${o.method}: ${o.message}`);
    }
    return r.reproduced ? 1 : 0;
  } catch (e) {
    if (e instanceof ReproFormatError || e instanceof TargetStartError || e instanceof HandshakeError) throw new UsageError(e.message);
    throw e;
  }
}

/** A client repro: start the client again (the repro's command, or the one given) and serve the same answers. */
async function replayClientCommand(args: ReplayArgs, repro: ClientRepro, command: string[]): Promise<number> {
  const problem = clientReproProblem(repro);
  if (problem) throw new UsageError(`${args.repro}: ${problem}`);
  if (args.url || args.start) throw new UsageError('a client repro replays with --http or --stdio -- <client command>, not --url/--start');
  const target = command.length ? clientTargetOf({ http: args.http ?? false, stdio: args.stdio, '--': command }) : undefined;
  try {
    const r = await replayClient(repro, target, { timeoutMs: args.timeout !== undefined ? duration(args.timeout, 'timeout') : undefined });
    const same = r.observations.filter((o) => o.key === repro.finding.key);
    if (args.json) console.log(JSON.stringify({ type: 'replay', role: 'client', repro: args.repro, finding: repro.finding, reproduced: r.reproduced, observations: r.observations }));
    else {
      console.log(`replaying client ${repro.finding.oracle} at ${repro.finding.method} (${repro.answers.length} answer${repro.answers.length === 1 ? '' : 's'}):`);
      repro.answers.forEach((a, i) => console.log(`  ${i + 1}. ${a.method} ${a.variant}${a.label ? ` (${a.label})` : ''}`));
      console.log(r.reproduced ? `still there: ${same[0].message}` : `fixed: ${repro.finding.oracle} at ${repro.finding.method} no longer happens (the client ${r.exit ?? 'did not run'})`);
      for (const o of r.observations.filter((x) => x.key !== repro.finding.key)) console.log(`  also seen: ${o.oracle} at ${o.method}: ${o.message}`);
    }
    return r.reproduced ? 1 : 0;
  } catch (e) {
    if (e instanceof TargetStartError) throw new UsageError(e.message);
    throw e;
  }
}
