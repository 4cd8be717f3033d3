// `mcpspec fuzz --differential eras|transports`: the same generated sequences on two sides of one
// server, and every step whose answers differ beyond what the spec allows, shrunk.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { differential, describeDifference, type DifferentialSide } from '../../fuzz/differential.js';
import { HandshakeError } from '../../runner/base-session.js';
import { TargetStartError } from '../../runner/transport.js';
import { serverTargetOf, startCommandOf, type FuzzArgs } from '../fuzz-args.js';
import { checkOutDir, duration, makeDirs, parseEnv } from '../target-args.js';
import { UsageError } from '../usage-error.js';

const DEFAULT_HTTP_URL = 'http://127.0.0.1:{port}/mcp';

function sidesOf(args: FuzzArgs): [DifferentialSide, DifferentialSide] {
  const mode = args.differential;
  if (mode === 'eras') {
    const target = serverTargetOf(args);
    const start = startCommandOf(args);
    return [
      { label: 'legacy (2025-11-25)', target, start, specVersion: '2025-11-25' },
      { label: 'modern (2026-07-28)', target, start, specVersion: '2026-07-28' },
    ];
  }
  if (mode !== 'transports') throw new UsageError(`--differential takes eras or transports, got ${String(mode)}`);
  if (!args.stdio || !args['http-args']) throw new UsageError('--differential transports needs --stdio -- <command> and --http-args "<arguments that make the same command serve HTTP on {port}>"');
  const stdio = serverTargetOf({ ...args, url: undefined, start: false });
  if (stdio.kind !== 'stdio') throw new UsageError('--differential transports needs --stdio -- <command>');
  const url = args.url ?? DEFAULT_HTTP_URL;
  const http = serverTargetOf({ url, start: true, '--': ['x'] });
  const httpArgs = args['http-args'].split(/\s+/).filter(Boolean);
  const specVersion = (args['spec-version'] ?? 'auto') as DifferentialSide['specVersion'];
  return [
    { label: 'stdio', target: stdio, specVersion },
    { label: 'http', target: http, start: { command: stdio.command, args: [...stdio.args, ...httpArgs] }, specVersion },
  ];
}

export async function runDifferentialCommand(args: FuzzArgs, seed: number): Promise<number> {
  const sides = sidesOf(args);
  if (args.out) checkOutDir(args.out);
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const print = (e: unknown) => process.stdout.write(`${JSON.stringify(e)}\n`);
  let result;
  try {
    result = await differential(sides, {
      mode: args.differential as 'eras' | 'transports',
      seed,
      runs: args.runs,
      timeMs: args.time !== undefined ? duration(args.time, 'time') : undefined,
      timeoutMs: duration(args.timeout, 'timeout'),
      methods: args.methods,
      skipMethods: args['skip-methods'],
      skipTools: args['skip-tool'],
      allowDestructive: args['allow-destructive'],
      allowOpenWorld: args['allow-open-world'],
      maxLength: args['max-length'],
      env: { set: parseEnv(args.env ?? []), pass: args['pass-env'] ?? [] },
      signal: interrupt.signal,
      onEvent: args.json ? print : undefined,
    });
  } catch (e) {
    if (e instanceof TargetStartError || e instanceof HandshakeError) throw new UsageError(`cannot fuzz both sides: ${e.message}`);
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (args.out) {
    makeDirs(args.out);
    writeFileSync(join(args.out, 'differential.json'), JSON.stringify({ seed, ...result }, null, 2));
  }
  if (args.json) print({ type: 'run-end', seed, runs: result.runs, steps: result.steps, differences: result.findings.length });
  else {
    const lines = [`mcpspec fuzz --differential ${args.differential}: ${result.sides.join(' vs ')}, ${result.runs} sequences, ${result.steps} steps (${result.skippedSteps} skipped on a side) in ${(result.durationMs / 1000).toFixed(1)} s`];
    for (const n of result.notes) lines.push(`  note: ${n}`);
    for (const f of result.findings) lines.push('', ...describeDifference(f, result.sides));
    lines.push('', result.findings.length ? `${result.findings.length} difference(s)` : 'no differences', `seed: ${seed} (repeat with --seed ${seed})`);
    console.log(lines.join('\n'));
  }
  if (result.runs === 0) throw new UsageError('no sequence ran on both sides: nothing was compared');
  return result.findings.length ? 1 : 0;
}
