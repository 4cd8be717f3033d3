// The report folder a run writes with --out (report.json, recording.json, and --format files),
// shared by `mcpspec server` and `mcpspec client`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPORT_FORMATS, type ReportFormat } from '../reports/formats.js';
import type { Report } from '../reports/report.js';
import { makeDirs } from './target-args.js';
import { UsageError } from './usage-error.js';

/** `--format junit,sarif --format html`: the formats to write beside report.json (needs --out). */
export function outputFormats(list: string[] | undefined, out: string | undefined): ReportFormat[] {
  const asked = (list ?? []).flatMap((f) => f.split(',')).map((f) => f.trim()).filter(Boolean);
  if (asked.length && !out) throw new UsageError('--format needs --out DIR: the formats are written beside report.json');
  for (const f of asked) if (!(REPORT_FORMATS as readonly string[]).includes(f)) throw new UsageError(`unknown --format ${f}; choose from ${REPORT_FORMATS.join(', ')}`);
  return [...new Set(asked)].filter((f) => f !== 'json') as ReportFormat[];
}

/** Write report.json, the (already redacted) recording and each asked format into `out`. */
export async function writeReportFolder(out: string, report: Report, recording: string, formats: ReportFormat[]): Promise<void> {
  try {
    makeDirs(out);
    writeFileSync(join(out, 'report.json'), JSON.stringify(report, null, 2));
    writeFileSync(join(out, 'recording.json'), recording);
    // Loaded only when asked for: the renderers' libraries cost a tenth of a second to load.
    if (formats.length) {
      const { FILE_NAME, renderReport } = await import('../reports/render.js');
      for (const f of formats) writeFileSync(join(out, FILE_NAME[f]), renderReport(report, f));
    }
  } catch (e) {
    throw new UsageError(`cannot write the report to ${out}: ${(e as Error).message}`);
  }
}
