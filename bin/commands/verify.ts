// `mcpspec verify report.json -- <command>` / `--url URL`: re-run a report's recorded options against
// the target the user names (never the command stored in the report; for a client report, the client
// command) and compare verdicts check by check. A compliance badge built from the report can be
// re-checked this way by anyone; `--badge` also holds a badge file against the report and, for a
// MUST-rate badge, its counts against the re-run (verify-badge.ts).

import type { Argv } from 'yargs';
import type { Report } from '../../reports/report.js';
import { UsageError } from '../usage-error.js';
import { checkDigest, readReport } from './read-report.js';
import { badgeRefusals, checkBadges } from './verify-badge.js';
import { checkOutDir, executeRun, makeDirs, parseEnv, positiveInt, signalExitCode, targetOf } from './server.js';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clientTargetOf, executeClientRun } from './client.js';

export function verifyOptions(y: Argv) {
  return y
    .usage('mcpspec verify report.json -- <command> [args...]\nmcpspec verify report.json --url http://127.0.0.1:3000/mcp [--start -- <command>]\nmcpspec verify client-report.json -- <client command with {url} or {server}>')
    .positional('report', { type: 'string', describe: 'the report.json to verify' })
    .option('stdio', { type: 'boolean', describe: 'the command after -- is the target over stdio (as in mcpspec server and client; implied by the command)' })
    .option('http', { type: 'boolean', describe: 'client reports: the client command after -- speaks Streamable HTTP to {url} (implied by the report)' })
    .option('url', { type: 'string', describe: 'a Streamable HTTP endpoint to re-run against' })
    .option('start', { type: 'boolean', default: false, describe: 'with --url: start the server command given after -- for the re-run, and stop it after ({port} = a free port)' })
    .option('header', { type: 'array', string: true, describe: 'extra HTTP header "Name: value"' })
    .option('env', { type: 'array', string: true, describe: 'set a variable for the stdio target: K=V' })
    .option('pass-env', { type: 'array', string: true, describe: "pass one of mcpspec's own variables to the stdio target by name" })
    .option('concurrency', { type: 'number', default: 4, describe: 'scenarios run at once' })
    .option('strict', { type: 'boolean', default: false, describe: 'also refuse the report when a check was judged in one run and could not be in the other (untestable, skip)' })
    .option('cwd', { type: 'string', describe: "client reports: the client's working directory" })
    .option('badge', { type: 'array', string: true, describe: 'a badge made from the report (badge.svg, shields.json, must-badge.svg, must-shields.json): refused unless it shows what the report gives and, for a MUST-rate badge, what the re-run gives' })
    .option('out', { type: 'string', describe: 'write the new report.json into this folder' });
}

export interface VerifyArgs {
  report: string;
  stdio?: boolean;
  http?: boolean;
  url?: string;
  start?: boolean;
  header?: string[];
  env?: string[];
  'pass-env'?: string[];
  concurrency: number;
  strict?: boolean;
  cwd?: string;
  out?: string;
  badge?: string[];
  '--'?: (string | number)[];
}

/** Verdicts that judged the target; the others say it could not be judged (or mcpspec failed). */
const JUDGED = new Set(['pass', 'fail', 'warn']);

/** How two runs' verdicts differ, check by check (`id: was X, now Y`). */
export interface VerdictDifferences {
  /** Both runs judged the check and disagree (pass against fail or warn): the report is refused. */
  contradictions: string[];
  /**
   * One run judged the check and the other could not (untestable, skip, error, or absent), or both
   * could not for different reasons: what could be judged differs, not the judgement.
   */
  coverage: string[];
}

export function verdictDifferences(was: Report, now: Report): VerdictDifferences {
  const before = new Map(was.checks.map((c) => [c.id, c.status as string]));
  const after = new Map(now.checks.map((c) => [c.id, c.status as string]));
  const out: VerdictDifferences = { contradictions: [], coverage: [] };
  for (const id of [...new Set([...before.keys(), ...after.keys()])]) {
    const a = before.get(id) ?? 'absent';
    const b = after.get(id) ?? 'absent';
    if (a === b) continue;
    (JUDGED.has(a) && JUDGED.has(b) ? out.contradictions : out.coverage).push(`${id}: was ${a}, now ${b}`);
  }
  return out;
}

export async function runVerify(args: VerifyArgs): Promise<number> {
  const file = args.report;
  if (!file) throw new UsageError('name the report to verify: mcpspec verify report.json -- <command> (or --url <endpoint>)');
  const recorded = readReport(file);
  checkDigest(recorded, file);
  const badges = checkBadges((args.badge ?? []).map(String), recorded, file);
  const command = (args['--'] ?? []).map(String);
  const said = args.stdio ? 'stdio' : args.http ? 'http' : undefined;
  if (args.stdio && args.http) throw new UsageError('give either --stdio or --http, not both');
  if (said && said !== recorded.target.transport) throw new UsageError(`${file} was recorded over ${recorded.target.transport}; verify it over the same transport (not --${said})`);
  if (args.stdio && command.length === 0) throw new UsageError(`--stdio needs the command after --, e.g. mcpspec verify ${file} --stdio -- node server.js`);
  if (args.http && recorded.role === 'server') throw new UsageError('--http is for client reports; a server report over HTTP is verified with --url <endpoint>');
  if (recorded.role === 'client') {
    if (args.url) throw new UsageError(`${file} is a client report: name the client command after -- (with {url} or {server}), not --url`);
    if (command.length === 0) throw new UsageError(`say which client to verify: mcpspec verify ${file} -- <client command${'officialHarness' in recorded.target ? ' (a harness written for the official suite)' : ` with ${recorded.target.transport === 'http' ? '{url}' : '{server}'}`}>`);
  } else if (command.length === 0 && !args.url) throw new UsageError('say which server to verify against: mcpspec verify report.json -- <command> or --url <endpoint>');
  if (args.start && recorded.role === 'client') throw new UsageError('--start is for server reports over HTTP: mcpspec verify report.json --url <endpoint> --start -- <command>');
  const server = recorded.role === 'server' ? targetOf({ stdio: command.length > 0 && !args.start, url: args.url, start: args.start, header: args.header, '--': command }) : undefined;
  const client = recorded.role === 'client' ? clientTargetOf({ http: recorded.target.transport === 'http', stdio: recorded.target.transport === 'stdio', '--': command, 'official-harness': 'officialHarness' in recorded.target && recorded.target.officialHarness === true }) : undefined;
  if (server && (server.kind === 'stdio') !== (recorded.target.transport === 'stdio')) {
    throw new UsageError(`${file} was recorded over ${recorded.target.transport}; verify it over the same transport`);
  }
  let cwd: string | undefined;
  if (args.cwd !== undefined) {
    if (!client) throw new UsageError('--cwd is for client reports (a server run gets its folder from --env or its command)');
    cwd = resolve(args.cwd);
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new UsageError(`--cwd ${args.cwd} is not a folder`);
  }
  const setEnv = parseEnv(args.env ?? []);
  const concurrency = positiveInt(args.concurrency, 'concurrency');
  if (args.out) checkOutDir(args.out);
  const given = new Set([...Object.keys(setEnv), ...(args['pass-env'] ?? [])]);
  const notGiven = (recorded.options.env ?? []).filter((n) => !given.has(n));
  if (notGiven.length) console.log(`note: the recorded run gave the target ${notGiven.join(', ')}; pass them with --env or --pass-env if it needs them`);
  console.log(`verifying ${file} (${recorded.digest}, seed ${recorded.options.seed}${recorded.shard ? `, shard ${recorded.shard.index}/${recorded.shard.count}` : ''})`);
  const passEnv = args['pass-env'] ?? [];
  const { report, recording, interrupted } = client
    ? await executeClientRun({ target: client, options: recorded.options, setEnv, passEnv, cwd, concurrency, json: false })
    : await executeRun({ target: server!, options: recorded.options, setEnv, passEnv, concurrency, shard: recorded.shard, json: false });
  if (args.out) {
    makeDirs(args.out);
    writeFileSync(join(args.out, 'report.json'), JSON.stringify(report, null, 2));
    writeFileSync(join(args.out, 'recording.json'), recording);
  }
  if (interrupted) {
    console.error(`mcpspec: interrupted (${interrupted}): nothing verified`);
    return signalExitCode(interrupted);
  }
  const { contradictions, coverage } = verdictDifferences(recorded, report);
  const badgeProblems = badgeRefusals(badges, report);
  const refused = contradictions.length > 0 || (args.strict === true && coverage.length > 0) || badgeProblems.length > 0;
  const digests = report.digest === recorded.digest ? `digest ${report.digest}` : `recorded ${recorded.digest}, now ${report.digest}`;
  const matching = report.checks.length - coverage.length - contradictions.length;
  if (!refused) {
    console.log(`verified: ${matching} verdict${matching === 1 ? '' : 's'} match; ${digests}`);
    for (const b of badges) console.log(`badge ${b.file}: matches the report${b.claims.must ? `; ${b.claims.must.met}/${b.claims.must.judged} MUST requirements met, as in the re-run` : ''}`);
  } else {
    const why = contradictions.length
      ? `${contradictions.length} verdict${contradictions.length === 1 ? ' contradicts' : 's contradict'} the report`
      : badgeProblems.length
        ? `the MUST rate of the re-run differs from the badge's`
        : `what could be judged differs (--strict)`;
    console.log(`NOT VERIFIED: ${why} (${digests})`);
    for (const d of [...contradictions, ...badgeProblems]) console.log(`  ${d}`);
  }
  if (coverage.length) {
    // Not a different judgement: the target did (or mcpspec could see) something in one run only.
    console.log(`${refused && args.strict ? '' : 'note: '}${coverage.length} check${coverage.length === 1 ? ' was' : 's were'} judged in one run only (coverage differs${args.strict ? '' : '; --strict refuses this'}):`);
    for (const d of coverage) console.log(`  ${d}`);
  }
  return refused ? 1 : 0;
}
