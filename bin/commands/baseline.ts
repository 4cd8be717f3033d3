// `mcpspec baseline report.json > expected.json`: a baseline from a report's failures (and warnings
// when the report was strict), each with its reason taken from the verdict's message.

import type { Argv } from 'yargs';
import { baselineOf } from '../../reports/baseline.js';
import { UsageError } from '../usage-error.js';
import { readReport } from './read-report.js';

export function baselineOptions(y: Argv) {
  return y.usage('mcpspec baseline report.json > expected.json').positional('report', { type: 'string', describe: 'the report.json to take the failures from' });
}

export function runBaseline(args: { report: string }): number {
  if (!args.report) throw new UsageError('name the report: mcpspec baseline report.json > expected.json');
  const report = readReport(args.report);
  process.stdout.write(`${JSON.stringify(baselineOf(report), null, 2)}\n`);
  return 0;
}
