// `mcpspec fuzz client --http|--stdio -- <client command with {url}|{server}>`: fuzz a client under
// test with near-valid and odd-but-valid server answers (runner/fuzz-client.ts).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_VERSION } from '../../protocol/tool-version.js';
import { VERSION_CHOICES, type SpecVersion } from '../../protocol/versions.js';
import { CLIENT_ORACLES, fuzzClient, type ClientFuzzEvent, type ClientFuzzResult } from '../../fuzz/client-campaign.js';
import { Redactor, secretValues } from '../../runner/redact.js';
import { TargetStartError } from '../../runner/transport.js';
import { checkOutDir, duration, makeDirs, parseEnv } from '../target-args.js';
import { UsageError } from '../usage-error.js';
import { clientTargetOf } from './client.js';
import type { FuzzArgs } from '../fuzz-args.js';

function positive(n: number | undefined, name: string): number | undefined {
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive integer, got ${n}`);
  return n;
}

/** report.json of a client campaign: one line per oracle and the findings with their repro paths. */
function clientReport(r: ClientFuzzResult): unknown {
  return {
    kind: 'mcpspec-fuzz-client',
    tool: { name: 'mcpspec', version: TOOL_VERSION },
    target: r.target,
    era: r.era,
    seed: r.seed,
    runs: r.runs,
    unjudged: r.unjudged,
    durationMs: r.durationMs,
    oracles: Object.fromEntries(Object.entries(CLIENT_ORACLES).map(([id, o]) => [id, { ...o, status: r.runs - r.unjudged === 0 ? 'untestable' : r.findings.some((f) => f.oracle === id) ? (o.level === 'MUST' ? 'fail' : 'warn') : 'pass' }])),
    findings: r.findings.map((f) => ({ kind: f.oracle === 'crash' || f.oracle === 'hang' ? f.oracle : 'violation', key: f.key, check: f.check, requirements: f.requirements, spec: f.spec, level: f.level, message: f.message, count: f.count, answers: f.answers.map((a) => `${a.method} ${a.variant}${a.label ? ` (${a.label})` : ''}`), reproduced: f.reproduced, repro: f.repro })),
  };
}

export async function runFuzzClientCommand(args: FuzzArgs): Promise<number> {
  if (args.url || args.start) throw new UsageError('mcpspec fuzz client takes --http or --stdio and the client command after --, not --url/--start');
  if (!(VERSION_CHOICES as readonly string[]).includes(args['spec-version'])) throw new UsageError(`unknown --spec-version ${args['spec-version']}`);
  const target = clientTargetOf({ http: args.http ?? false, stdio: args.stdio, '--': args['--'] });
  const seed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, got ${args.seed}`);
  const timeoutMs = duration(args.timeout, 'timeout');
  const timeMs = args.time !== undefined ? duration(args.time, 'time') : undefined;
  if (args.out) checkOutDir(args.out);
  const setEnv = parseEnv(args.env ?? []);
  const redactor = new Redactor([...secretValues(process.env), ...Object.values(setEnv)]);
  const print = (e: unknown) => process.stdout.write(`${redactor.text(JSON.stringify(e))}\n`);
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let r: ClientFuzzResult;
  try {
    r = await fuzzClient(target, {
      specVersion: args['spec-version'] as SpecVersion | 'auto',
      seed,
      runs: positive(args.runs, 'runs'),
      timeMs,
      timeoutMs,
      maxLength: Math.min(positive(args['max-length'], 'max-length') ?? 4, 8),
      concurrency: positive(args.concurrency, 'concurrency'),
      reproDir: args.out,
      env: { set: setEnv, pass: args['pass-env'] ?? [] },
      signal: interrupt.signal,
      toolVersion: TOOL_VERSION,
      onEvent: args.json ? (e: ClientFuzzEvent) => print(e) : undefined,
    });
  } catch (e) {
    if (e instanceof TargetStartError) throw new UsageError(redactor.text(`cannot fuzz the client: ${e.message}`));
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (args.out) {
    makeDirs(args.out);
    writeFileSync(join(args.out, 'report.json'), `${JSON.stringify(redactor.json(clientReport(r)), null, 2)}\n`);
  }
  if (args.json) print({ type: 'run-end', seed, runs: r.runs, unjudged: r.unjudged, findings: r.findings.length });
  else {
    const lines = [`mcpspec fuzz client: ${r.era.version} (${r.era.era}), ${r.runs} client runs in ${(r.durationMs / 1000).toFixed(1)} s${r.unjudged ? ` (${r.unjudged} asked for none of the planned answers: not judged)` : ''}`];
    for (const f of r.findings) {
      lines.push('', `${f.level === 'MUST' ? 'FAIL' : 'WARN'} ${f.check} (${f.oracle}) at ${f.method}: ${f.message.split('\n')[0].slice(0, 300)}  (${f.count} of ${r.runs} runs)`);
      lines.push(`  rule: ${f.check} [${f.requirements.join(', ')}] ${f.spec}`);
      lines.push(`  minimal answers (${f.answers.length}, ${f.shrinks} shrinks${f.shrinkBudgetReached ? ', shrink budget reached' : ''}):`);
      f.answers.forEach((a, i) => lines.push(`    ${i + 1}. ${a.method} ${a.variant}${a.label ? ` (${a.label})` : ''}`));
      if (f.repro) lines.push(`  repro: ${f.repro}  (mcpspec replay ${f.repro})`);
    }
    lines.push('', r.findings.length ? `${r.findings.length} finding(s)` : 'no findings', `seed: ${seed} (repeat with --seed ${seed})`);
    if (args.out) lines.push(`report: ${join(args.out, 'report.json')}`);
    console.log(redactor.text(lines.join('\n')));
  }
  if (r.runs - r.unjudged === 0) throw new UsageError('the client asked for none of the answers fuzzed (tools/list, prompts/list, resources/list): nothing was judged');
  return r.findings.length ? 1 : 0;
}
