// The GitHub Action's run step (action.yml): reads the inputs the way the runner passes them
// (INPUT_<NAME> variables), runs `mcpspec server` into the output folder, renders the requested
// report formats when this mcpspec has the report command, writes the step summary (Markdown) and
// the step outputs, and exits with mcpspec's exit code. Runnable locally with the same variables.

import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../reports/report.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, 'mcpspec.js');

/** An input as the runner passes it: INPUT_<NAME uppercased> (hyphens kept; underscores accepted too). */
export function input(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = `INPUT_${name.toUpperCase()}`;
  return (env[key] ?? env[key.replace(/-/g, '_')] ?? '').trim();
}

/** Split a command line the way a POSIX shell splits words (quotes and backslashes; no expansion). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) word += text[++i];
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote in: ${text}`);
  if (inWord) words.push(word);
  return words;
}

function fail(message: string): never {
  process.stdout.write(`::error::mcpspec action: ${message}\n`);
  process.exit(2);
}

/** Markdown for the job summary: verdict, counts, and every failure with its spec link. */
export function summaryMarkdown(report: Report, exitCode: number, baseline?: string): string {
  const s = report.summary;
  const icon = s.conformant ? '✅' : '❌';
  const target = 'url' in report.target ? report.target.url : [report.target.command, ...report.target.args].join(' ');
  const lines = [
    `## ${icon} mcpspec: ${s.conformant ? 'conformant' : 'not conformant'}`,
    '',
    `Target \`${target}\`, ${report.era.era} era, version ${report.era.version}; seed ${report.options.seed}; digest \`${report.digest}\``,
    '',
    '| pass | fail | warn | skip | untestable | error | crash/hang |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${s.pass} | ${s.fail} | ${s.warn} | ${s.skip} | ${s.untestable} | ${s.error} | ${s.targetFailures} |`,
    '',
  ];
  const bad = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error');
  if (bad.length) {
    lines.push('| check | status | message |', '|---|---|---|');
    for (const c of bad) lines.push(`| [${c.id}](${c.spec}) | ${c.status} | ${c.message.split('\n')[0].replace(/\|/g, '\\|').slice(0, 300)} |`);
    lines.push('');
  }
  if (baseline) lines.push(`Judged against the baseline \`${baseline}\`: ${exitCode === 0 ? 'only expected failures' : 'new failures'} (exit ${exitCode}).`, '');
  return `${lines.join('\n')}\n`;
}

function setOutputs(values: Record<string, string>): void {
  const file = process.env.GITHUB_OUTPUT;
  const text = Object.entries(values)
    .map(([k, v]) => `${k}=${v.replace(/\n/g, ' ')}\n`)
    .join('');
  if (file) appendFileSync(file, text);
  else process.stdout.write(text);
}

function main(): void {
  const command = input('target-command');
  const url = input('target-url');
  const start = input('target-start');
  if (!command && !url) fail('set target-command or target-url');
  if (command && url) fail('set target-command or target-url, not both');
  if (start && !url) fail('target-start goes with target-url: the endpoint the started server listens on');
  const outDir = resolve(input('out-dir') || 'mcpspec-report');
  mkdirSync(outDir, { recursive: true });
  const strict = /^(true|yes|1)$/i.test(input('strict'));
  const baseline = input('baseline');
  const expectedFailures = input('expected-failures');
  const strictBaseline = /^(true|yes|1)$/i.test(input('strict-baseline'));
  let extra: string[];
  let targetWords: string[];
  let startWords: string[];
  try {
    extra = splitWords(input('args'));
    targetWords = command ? splitWords(command) : [];
    startWords = start ? splitWords(start) : [];
  } catch (e) {
    fail((e as Error).message);
  }
  const args = ['server', '--out', outDir, '--spec-version', input('spec-version') || 'auto', ...(strict ? ['--strict'] : []), ...(baseline ? ['--baseline', baseline] : []), ...(expectedFailures ? ['--expected-failures', expectedFailures] : []), ...(strictBaseline ? ['--strict-baseline'] : []), ...extra];
  // target-start: mcpspec starts the HTTP server before the run and stops it after (`{port}` = a free port).
  args.push(...(url ? ['--url', url, ...(start ? ['--start', '--', ...startWords] : [])] : ['--stdio', '--', ...targetWords]));

  process.stdout.write(`mcpspec ${args.join(' ')}\n`);
  const run = spawnSync(process.execPath, [CLI, ...args], { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  const code = run.status ?? 2;
  const reportPath = join(outDir, 'report.json');
  if (!existsSync(reportPath)) {
    setOutputs({ conformant: 'false', passed: '0', failed: '0', 'report-path': '' });
    process.exit(code === 0 ? 2 : code);
  }
  const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;

  const formats = (input('formats') || 'junit,sarif,markdown').split(/[\s,]+/).filter(Boolean);
  const hasReportCommand = existsSync(join(HERE, 'commands', 'report.js'));
  if (formats.length && !hasReportCommand) process.stdout.write(`::notice::this mcpspec has no report command yet: only report.json is written (asked for ${formats.join(', ')})\n`);
  if (hasReportCommand) {
    for (const format of formats) {
      const r = spawnSync(process.execPath, [CLI, 'report', reportPath, '--format', format, '--out', outDir], { stdio: 'inherit' });
      if (r.status !== 0) process.stdout.write(`::warning::mcpspec report --format ${format} failed (exit ${r.status})\n`);
    }
  }

  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary) appendFileSync(summary, summaryMarkdown(report, code, [baseline, expectedFailures].filter(Boolean).join(' and ') || undefined));
  setOutputs({
    conformant: String(report.summary.conformant),
    passed: String(report.summary.pass),
    failed: String(report.summary.fail),
    'report-path': reportPath,
  });
  process.exit(code);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
