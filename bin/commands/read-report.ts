import { readFileSync } from 'node:fs';
import { REPORT_VERSION, verdictDigest, type Report } from '../../reports/report.js';
import { UsageError } from '../usage-error.js';

/** Read a report.json, or fail with one line saying why it cannot be used. */
export function readReport(file: string): Report {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let data: Report;
  try {
    data = JSON.parse(text) as Report;
  } catch (e) {
    throw new UsageError(`${file} is not JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof data !== 'object' || data === null || !Array.isArray(data.checks) || typeof data.options !== 'object' || typeof data.era !== 'object') {
    throw new UsageError(`${file} is not an mcpspec report.json`);
  }
  if (data.reportVersion !== REPORT_VERSION) throw new UsageError(`${file} has reportVersion ${String(data.reportVersion)}; this mcpspec reads version ${REPORT_VERSION}`);
  return data;
}

/** A report whose digest does not match its own verdicts was edited after it was written. */
export function checkDigest(report: Report, file: string): void {
  const actual = verdictDigest(report.checks, report.era.judgedBy);
  if (actual !== report.digest) throw new UsageError(`${file} has been altered: its digest ${report.digest} does not match its verdicts (${actual})`);
}
