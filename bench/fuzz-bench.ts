// Fuzz throughput against @modelcontextprotocol/server-everything over stdio, beside a plain
// JSON-RPC loop replaying the very messages the campaign sent, on the same server, in the same run.
//
// The campaign runs each sequence on a fresh process (that is what makes a finding reproducible), so
// the plain loop does the same: per sequence, start the server, write each line fuzz wrote (the
// handshake, the steps, the fences), wait for the answer to each request by id, close stdin and wait
// for the exit, two sequences at a time as fuzz does. Fuzz time is measured from the first generated
// sequence to the last one judged (discovery and shrinking excluded). A second plain loop sends the
// same messages on one long-lived process: the target's own round-trip rate, for scale.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fuzz, type FuzzEvent } from '../fuzz/server-campaign.js';
import { EVERYTHING } from './everything.js';

// A short timeout: server-everything answers in milliseconds, and both loops wait it out alike for
// the near-valid messages it drops without an answer.
export const FUZZ_BENCH_DEFAULTS = { runs: 40, seed: 1, timeoutMs: 2_000 };

/** server-everything tools whose work is a sleep: the example for --skip-tool. */
const SLOW_TOOLS = ['trigger-long-running-operation'];

type Line = { text: string; id?: string };

/** One process of the server; answers matched by JSON id. */
class Plain {
  private readonly waiting = new Map<string, () => void>();
  private readonly exited: Promise<void>;
  constructor(
    private readonly proc: ChildProcess,
    private readonly timeoutMs: number,
  ) {
    this.exited = new Promise((r) => proc.once('exit', () => r()));
    proc.stdin!.on('error', () => undefined);
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      try {
        const m = JSON.parse(line) as { id?: unknown };
        if (m && typeof m === 'object' && 'id' in m && !('method' in m)) {
          const key = JSON.stringify(m.id);
          this.waiting.get(key)?.();
          this.waiting.delete(key);
        }
      } catch {
        /* not JSON */
      }
    });
  }

  static start(cwd: string, timeoutMs: number): Plain {
    return new Plain(spawn(process.execPath, [EVERYTHING, 'stdio'], { cwd, stdio: ['pipe', 'pipe', 'ignore'] }), timeoutMs);
  }

  send(l: Line): Promise<void> {
    if (l.id === undefined) {
      this.proc.stdin!.write(`${l.text}\n`);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const t = setTimeout(resolve, this.timeoutMs);
      this.waiting.set(l.id!, () => {
        clearTimeout(t);
        resolve();
      });
      this.proc.stdin!.write(`${l.text}\n`);
    });
  }

  /** As fuzz closes a target: stdin EOF, then SIGKILL after 2 s. */
  async close(): Promise<void> {
    this.proc.stdin!.end();
    let t: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((r) => {
      t = setTimeout(() => r(true), 2000);
    });
    if (await Promise.race([this.exited.then(() => false), late])) {
      this.proc.kill('SIGKILL');
      await this.exited;
    }
    clearTimeout(t);
  }
}

async function pool<T>(items: T[], n: number, work: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

function idOf(text: string): string | undefined {
  try {
    const m = JSON.parse(text) as { id?: unknown; method?: unknown };
    return m && typeof m === 'object' && (typeof m.id === 'string' || typeof m.id === 'number') ? JSON.stringify(m.id) : undefined;
  } catch {
    return undefined;
  }
}

export interface FuzzBenchResult {
  /** Sequences without any observation (nothing waited out): summed per-sequence times. */
  clean: { sequences: number; steps: number; fuzzMs: number; plainMs: number };
  runs: number;
  steps: number;
  fuzzSeconds: number;
  plainSeconds: number;
  plainOneProcessSeconds: number;
  messages: number;
  findings: string[];
}

export async function measureFuzz(opts: Partial<typeof FUZZ_BENCH_DEFAULTS> = {}): Promise<FuzzBenchResult> {
  const o = { ...FUZZ_BENCH_DEFAULTS, ...opts };
  let t0 = 0;
  let t1 = 0;
  let steps = 0;
  const perSeq = new Map<string, { steps: number; ms: number; clean: boolean }>();
  const onEvent = (e: FuzzEvent) => {
    if (e.type === 'fuzz-start') t0 = performance.now();
    if (e.type === 'sequence' && !e.startFailure) {
      t1 = performance.now();
      steps += e.steps;
      perSeq.set(`seq-${e.index}`, { steps: e.steps, ms: e.durationMs, clean: e.observations.length === 0 });
    }
  };
  const r = await fuzz({ kind: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }, { specVersion: 'auto', seed: o.seed, runs: o.runs, timeoutMs: o.timeoutMs, allowDestructive: false, allowOpenWorld: false, skipTools: SLOW_TOOLS, concurrency: 2, maxShrinkEvaluations: 1, onEvent });
  // Every line fuzz wrote to each generated sequence's process, in order.
  const bySeq = new Map<string, Line[]>();
  for (const e of r.recording.events()) {
    if (e.dir !== 'out' || e.channel !== 'stdio' || !e.source?.startsWith('seq-')) continue;
    const list = bySeq.get(e.source) ?? [];
    list.push({ text: e.raw, id: idOf(e.raw) });
    bySeq.set(e.source, list);
  }
  const names = [...bySeq.keys()];
  const sequences = [...bySeq.values()];
  const plainMs = new Map<string, number>();
  const cwd = mkdtempSync(join(tmpdir(), 'mcpspec-bench-fuzz-'));
  try {
    const p0 = performance.now();
    await pool(names, 2, async (name) => {
      const s0 = performance.now();
      const p = Plain.start(cwd, o.timeoutMs);
      for (const l of bySeq.get(name)!) await p.send(l);
      await p.close();
      plainMs.set(name, performance.now() - s0);
    });
    const plainSeconds = (performance.now() - p0) / 1000;
    // The same messages on one process: one handshake, the sequences' own handshakes left out.
    const q0 = performance.now();
    const one = Plain.start(cwd, o.timeoutMs);
    const [first] = sequences;
    const isHandshake = (l: Line) => /"method":"(initialize|notifications\/initialized)"/.test(l.text);
    for (const l of first?.filter(isHandshake) ?? []) await one.send(l);
    let n = 0;
    for (const lines of sequences) for (const l of lines.filter((x) => !isHandshake(x))) await one.send(l.id === undefined ? l : { text: l.text.replace(/"id":(("(?:[^"\\]|\\.)*")|-?\d+)/, `"id":"one-${n}"`), id: JSON.stringify(`one-${n++}`) });
    await one.close();
    const plainOneProcessSeconds = (performance.now() - q0) / 1000;
    // Sequences in which every request was answered: no timeout in either loop, only the work itself.
    const clean = names.filter((n) => perSeq.get(n)?.clean && plainMs.has(n));
    const cleanFigures = {
      sequences: clean.length,
      steps: clean.reduce((a, n) => a + perSeq.get(n)!.steps, 0),
      fuzzMs: clean.reduce((a, n) => a + perSeq.get(n)!.ms, 0),
      plainMs: clean.reduce((a, n) => a + plainMs.get(n)!, 0),
    };
    return { clean: cleanFigures, runs: r.runs, steps, fuzzSeconds: (t1 - t0) / 1000, plainSeconds, plainOneProcessSeconds, messages: sequences.reduce((a, s) => a + s.length, 0), findings: r.findings.map((f) => `${f.oracle} at ${f.method}`) };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** The bench table: fuzz steps per second beside the plain loops, and the ratio. */
export async function benchFuzz(opts: Partial<typeof FUZZ_BENCH_DEFAULTS> = {}): Promise<string> {
  const m = await measureFuzz(opts);
  const rate = (s: number) => (m.steps / s).toFixed(1);
  return [
    `${m.runs} sequences, ${m.steps} steps, ${m.messages} lines written (handshakes and fences included); skipped tool: ${SLOW_TOOLS.join(', ')}`,
    '',
    '| loop | seconds | steps/s | fuzz / loop |',
    '|---|---|---|---|',
    `| mcpspec fuzz (fresh process per sequence, 2 at a time) | ${m.fuzzSeconds.toFixed(2)} | ${rate(m.fuzzSeconds)} | 1.00x |`,
    `| plain JSON-RPC loop, same lines, fresh process per sequence, 2 at a time | ${m.plainSeconds.toFixed(2)} | ${rate(m.plainSeconds)} | **${(m.plainSeconds / m.fuzzSeconds).toFixed(2)}x** (target >= 0.7x) |`,
    `| plain loop, same steps on one process (the target's round-trip rate) | ${m.plainOneProcessSeconds.toFixed(2)} | ${rate(m.plainOneProcessSeconds)} | ${(m.plainOneProcessSeconds / m.fuzzSeconds).toFixed(2)}x |`,
    '',
    `Only the ${m.clean.sequences} sequences in which every request was answered (no timeout waited out on either side; per-sequence times summed, process start and exit included): ` +
      `fuzz ${(m.clean.steps / (m.clean.fuzzMs / 1000)).toFixed(1)} steps/s, plain loop ${(m.clean.steps / (m.clean.plainMs / 1000)).toFixed(1)} steps/s: **${(m.clean.plainMs / m.clean.fuzzMs).toFixed(2)}x**.`,
    '',
    m.findings.length ? `findings (not shrunk here): ${m.findings.join('; ')}` : 'no findings',
  ].join('\n');
}
