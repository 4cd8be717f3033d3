// `mcpspec merge a.json b.json ... [--out merged.json]`: the reports of the shards of one run
// (`--shard i/n`) merged into the report of the whole run. (To be wired under `mcpspec report merge`.)

import { writeFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { MergeError, mergeShards } from '../../reports/merge.js';
import { exitCodeOf, type Report } from '../../reports/report.js';
import { CHECKS, SCENARIOS } from '../../suites/catalogue.js';
import { UsageError } from '../usage-error.js';
import { checkDigest, readReport } from './read-report.js';

export function mergeOptions(y: Argv) {
  return y
    .usage('mcpspec merge shard1/report.json shard2/report.json ... [--out merged.json]')
    .positional('reports', { type: 'string', array: true, describe: 'the report.json of every shard' })
    .option('out', { type: 'string', describe: 'write the merged report here (default: stdout)' });
}

export function mergeReports(files: string[]): Report {
  const reports = files.map((f) => {
    const r = readReport(f);
    checkDigest(r, f);
    return r;
  });
  try {
    return mergeShards(reports, { checks: CHECKS.map((c) => c.id), scenarios: SCENARIOS.map((s) => s.id) }, CHECKS);
  } catch (e) {
    if (e instanceof MergeError) throw new UsageError(`cannot merge: ${e.message}`);
    throw e;
  }
}

export function runMerge(args: { reports: string[]; out?: string }): number {
  const files = (args.reports ?? []).map(String);
  if (files.length === 0) throw new UsageError('name the report.json of every shard: mcpspec merge a.json b.json ...');
  const merged = mergeReports(files);
  const text = `${JSON.stringify(merged, null, 2)}\n`;
  if (args.out) {
    try {
      writeFileSync(args.out, text);
    } catch (e) {
      throw new UsageError(`cannot write ${args.out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const s = merged.summary;
    console.error(`merged ${files.length} shards: ${s.pass} passed, ${s.fail} failed, ${s.warn} warnings, ${s.skip} skipped, ${s.untestable} untestable, ${s.error} errors; digest ${merged.digest}`);
  } else process.stdout.write(text);
  const code = exitCodeOf(merged);
  return code === 2 && merged.summary.error === 0 && merged.summary.harnessErrors === 0 ? 1 : code;
}
