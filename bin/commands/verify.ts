// `mcpspec verify report.json -- <command>` / `--url URL`: re-run a report's recorded options against
// the target the user names (never the command stored in the report) and compare verdicts check by
// check. A compliance badge built from the report can be re-checked this way by anyone.

import type { Argv } from 'yargs';
import type { Report } from '../../reports/report.js';
import { UsageError } from '../usage-error.js';
import { checkDigest, readReport } from './read-report.js';
import { checkOutDir, executeRun, makeDirs, parseEnv, positiveInt, signalExitCode, targetOf } from './server.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function verifyOptions(y: Argv) {
  return y
    .usage('mcpspec verify report.json -- <command> [args...]\nmcpspec verify report.json --url http://127.0.0.1:3000/mcp')
    .positional('report', { type: 'string', describe: 'the report.json to verify' })
    .option('url', { type: 'string', describe: 'a Streamable HTTP endpoint to re-run against' })
    .option('header', { type: 'array', string: true, describe: 'extra HTTP header "Name: value"' })
    .option('env', { type: 'array', string: true, describe: 'set a variable for the stdio target: K=V' })
    .option('pass-env', { type: 'array', string: true, describe: "pass one of mcpspec's own variables to the stdio target by name" })
    .option('concurrency', { type: 'number', default: 4, describe: 'scenarios run at once' })
    .option('out', { type: 'string', describe: 'write the new report.json into this folder' });
}

export interface VerifyArgs {
  report: string;
  url?: string;
  header?: string[];
  env?: string[];
  'pass-env'?: string[];
  concurrency: number;
  out?: string;
  '--'?: (string | number)[];
}

/** id: was X, now Y for every check whose verdict differs (or that is in only one of the two). */
export function verdictDifferences(was: Report, now: Report): string[] {
  const before = new Map(was.checks.map((c) => [c.id, c.status]));
  const after = new Map(now.checks.map((c) => [c.id, c.status]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  return ids.filter((id) => before.get(id) !== after.get(id)).map((id) => `${id}: was ${before.get(id) ?? 'absent'}, now ${after.get(id) ?? 'absent'}`);
}

export async function runVerify(args: VerifyArgs): Promise<number> {
  const file = args.report;
  if (!file) throw new UsageError('name the report to verify: mcpspec verify report.json -- <command> (or --url <endpoint>)');
  const recorded = readReport(file);
  checkDigest(recorded, file);
  if (recorded.role !== 'server') throw new UsageError(`${file} is a ${recorded.role} report; verify re-runs server reports`);
  const command = (args['--'] ?? []).map(String);
  if (command.length === 0 && !args.url) throw new UsageError('say which server to verify against: mcpspec verify report.json -- <command> or --url <endpoint>');
  const target = targetOf({ stdio: command.length > 0, url: args.url, header: args.header, '--': command });
  if ((target.kind === 'stdio') !== (recorded.target.transport === 'stdio')) {
    throw new UsageError(`${file} was recorded over ${recorded.target.transport}; verify it over the same transport`);
  }
  const setEnv = parseEnv(args.env ?? []);
  const concurrency = positiveInt(args.concurrency, 'concurrency');
  if (args.out) checkOutDir(args.out);
  const given = new Set([...Object.keys(setEnv), ...(args['pass-env'] ?? [])]);
  const notGiven = (recorded.options.env ?? []).filter((n) => !given.has(n));
  if (notGiven.length) console.log(`note: the recorded run gave the target ${notGiven.join(', ')}; pass them with --env or --pass-env if it needs them`);
  console.log(`verifying ${file} (${recorded.digest}, seed ${recorded.options.seed}${recorded.shard ? `, shard ${recorded.shard.index}/${recorded.shard.count}` : ''})`);
  const { report, recording, interrupted } = await executeRun({
    target,
    options: recorded.options,
    setEnv,
    passEnv: args['pass-env'] ?? [],
    concurrency,
    shard: recorded.shard,
    json: false,
  });
  if (args.out) {
    makeDirs(args.out);
    writeFileSync(join(args.out, 'report.json'), JSON.stringify(report, null, 2));
    writeFileSync(join(args.out, 'recording.json'), recording);
  }
  if (interrupted) {
    console.error(`mcpspec: interrupted (${interrupted}): nothing verified`);
    return signalExitCode(interrupted);
  }
  const diffs = verdictDifferences(recorded, report);
  if (diffs.length === 0 && report.digest === recorded.digest) {
    console.log(`verified: ${report.checks.length} verdicts match; digest ${report.digest}`);
    return 0;
  }
  console.log(`NOT VERIFIED: ${diffs.length} verdict${diffs.length === 1 ? ' differs' : 's differ'} (recorded ${recorded.digest}, now ${report.digest})`);
  for (const d of diffs) console.log(`  ${d}`);
  return 1;
}
