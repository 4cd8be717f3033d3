// `mcpspec report <report.json...> --format F [--out FILE|DIR]`: render saved reports for CI systems,
// pull requests and READMEs (JUnit XML, SARIF, Markdown, HTML, badges). Reads report.json files
// written by `mcpspec server --out DIR`; prints to stdout unless --out is given.

import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { packageRoot } from '../../protocol/package-root.js';
import { renderHtmlMatrix } from '../../reports/html.js';
import { FILE_NAME, REPORT_FORMATS, renderReport, type ReportFormat } from '../../reports/render.js';
export { REPORT_FORMATS, renderReport, type ReportFormat };
import { REPORT_VERSION, traceReport, type Report } from '../../reports/report.js';
import { UsageError } from '../usage-error.js';

interface ReportArgs {
  reports: string[];
  format: ReportFormat;
  out?: string;
}

let validator: ReturnType<Ajv2020['compile']> | undefined;
function validateReport(value: unknown): string | undefined {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: false, strict: false });
    ((addFormatsModule as unknown as { default?: (a: Ajv2020) => void }).default ?? (addFormatsModule as unknown as (a: Ajv2020) => void))(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(join(packageRoot(), 'reports', 'report.schema.json'), 'utf8')) as object);
  }
  if (validator(value)) return undefined;
  const e = validator.errors?.[0];
  return e ? `${e.instancePath || '/'} ${e.message ?? 'is invalid'}` : 'does not match the report schema';
}

/** Read a report.json (or a folder holding one) and check it against reports/report.schema.json. */
export function readReport(path: string): Report {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'report.json') : path;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(err.code === 'ENOENT' ? `no such report: ${file}` : `cannot read ${file}: ${err.message}`);
  }
  const version = (value as { reportVersion?: unknown } | null)?.reportVersion;
  if (version !== REPORT_VERSION) throw new UsageError(`${file} is not a reportVersion ${REPORT_VERSION} report.json (reportVersion: ${JSON.stringify(version)})`);
  const problem = validateReport(value);
  if (problem) throw new UsageError(`${file} is not a valid report: ${problem}`);
  return value as Report;
}

/** A name for one input's output file in an --out folder: the report's folder name, or its file name. */
function stemOf(input: string): string {
  const isDir = existsSync(input) && statSync(input).isDirectory();
  const base = isDir ? basename(input) : basename(input) === 'report.json' ? basename(dirname(input)) : basename(input, extname(input));
  return base.replace(/[^A-Za-z0-9._-]+/g, '_') || 'report';
}

function isDirTarget(out: string): boolean {
  return out.endsWith('/') || out.endsWith('\\') || (existsSync(out) && statSync(out).isDirectory());
}

function write(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new UsageError(`cannot write ${file}: ${(e as Error).message}`);
  }
  console.error(`mcpspec: wrote ${file}`);
}

export async function runReport(args: ReportArgs): Promise<void> {
  const inputs = args.reports.map(String);
  if (inputs.length === 0) throw new UsageError('give at least one report.json (written by mcpspec server --out DIR)');
  const format = args.format;
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(format ? `unknown --format ${String(format)}; choose one of ${REPORT_FORMATS.join(', ')}` : `say which format: --format ${REPORT_FORMATS.join('|')}`);
  }
  const reports = inputs.map(readReport);
  // Reports written before the traceability view: derived from their verdicts now, the catalogue
  // saying why a requirement has no check (`--format json` prints the reports as they are).
  if (format !== 'json' && reports.some((r) => !r.traceability)) {
    const { CHECKS } = await import('../../suites/catalogue.js');
    for (const r of reports) r.traceability ??= traceReport(r, CHECKS);
  }

  // Outputs: one text per input, except html (several inputs make one matrix page) and json (an array).
  let outputs: { stem: string; text: string }[];
  if (reports.length === 1) outputs = [{ stem: stemOf(inputs[0]), text: renderReport(reports[0], format) }];
  else if (format === 'html') outputs = [{ stem: 'matrix', text: renderHtmlMatrix(reports) }];
  else if (format === 'json') outputs = [{ stem: 'reports', text: JSON.stringify(reports, null, 2) }];
  else outputs = reports.map((r, i) => ({ stem: stemOf(inputs[i]), text: renderReport(r, format) }));

  const joined = outputs.map((o) => (o.text.endsWith('\n') ? o.text : `${o.text}\n`)).join('\n---\n\n');
  if (format === 'markdown' && process.env.GITHUB_STEP_SUMMARY) {
    try {
      appendFileSync(process.env.GITHUB_STEP_SUMMARY, joined);
    } catch (e) {
      throw new UsageError(`cannot append to $GITHUB_STEP_SUMMARY (${process.env.GITHUB_STEP_SUMMARY}): ${(e as Error).message}`);
    }
  }

  if (args.out === undefined) {
    if (outputs.length > 1 && format !== 'markdown') {
      throw new UsageError(`${outputs.length} reports in --format ${format} make ${outputs.length} files: give --out DIR (or --format html for one matrix page)`);
    }
    process.stdout.write(joined);
    return;
  }
  if (outputs.length === 1 && !isDirTarget(args.out)) {
    write(args.out, outputs[0].text);
    return;
  }
  if (existsSync(args.out) && !statSync(args.out).isDirectory()) throw new UsageError(`--out ${args.out} is a file; ${outputs.length} outputs need a folder`);
  if (outputs.length === 1 && reports.length === 1) {
    write(join(args.out, FILE_NAME[format]), outputs[0].text);
    return;
  }
  const ext = extname(FILE_NAME[format]);
  // The MUST-rate badges of several reports may share a folder with their compliance badges.
  const suffix = format === 'must-badge' || format === 'must-shields' ? '-must' : '';
  const used = new Map<string, number>();
  for (const o of outputs) {
    const n = (used.get(o.stem) ?? 0) + 1;
    used.set(o.stem, n);
    write(join(args.out, `${o.stem}${n > 1 ? `-${n}` : ''}${suffix}${ext}`), o.text);
  }
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report <reports..>',
  describe: 'render saved report.json files as junit, sarif, markdown, html (several: a matrix), badge, shields, must-badge, must-shields, tap or json',
  builder: (y: Argv<object>) =>
    y
      .usage('mcpspec report <report.json|DIR...> --format junit|sarif|markdown|html|badge|shields|must-badge|must-shields|tap|json [--out FILE|DIR]')
      .positional('reports', { type: 'string', array: true, demandOption: true, describe: 'report.json files (or folders holding one) written by mcpspec server --out DIR' })
      .option('format', { type: 'string', choices: REPORT_FORMATS as unknown as string[], describe: 'output format (required, except for `report merge`)' })
      .option('out', { type: 'string', describe: 'write to this file, or into this folder (several outputs, or a path ending in /); default: stdout' }) as unknown as Argv<ReportArgs>,
  handler: async (a: ArgumentsCamelCase<ReportArgs>) => {
    // `mcpspec report merge a.json b.json ...`: the shards of one run into one report.
    if (a.reports[0] === 'merge') {
      const { runMerge } = await import('./report-merge.js');
      const code = runMerge({ reports: a.reports.slice(1).map(String), out: a.out });
      if (code !== 0) process.exitCode = code;
      return;
    }
    if (!a.format) throw new UsageError(`--format is required: one of ${REPORT_FORMATS.join(', ')}`);
    await runReport(a);
  },
};
