// Fuzz throughput over Streamable HTTP: the TypeScript SDK 2.x fixture server (2026-07-28, no
// sessions, one long-lived process), fuzzed with --url, beside a plain loop that sends the very
// HTTP requests the campaign sent (same method, headers and body, in order, each answer read to its
// end), two sequences at a time as fuzz runs them, in the same run.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fuzz, type FuzzEvent } from '../fuzz/server-campaign.js';
import { packageRoot } from '../protocol/package-root.js';

const SDK2 = join(packageRoot(), 'dist', 'fixtures', 'servers', 'sdk2', 'server.js');

async function startSdk2Http(): Promise<{ url: string; stop: () => void }> {
  const proc = spawn(process.execPath, [SDK2, '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('the SDK 2.x fixture did not start within 20 s')), 20_000);
    createInterface({ input: proc.stdout! }).on('line', (l) => {
      const m = /^listening (http\S+)/.exec(l);
      if (m) {
        clearTimeout(t);
        resolve(m[1]);
      }
    });
  });
  return { url, stop: () => proc.kill('SIGKILL') };
}

interface Sent {
  method: string;
  headers: Record<string, string>;
  body: string;
}

export async function benchFuzzHttp(opts: { runs?: number; seed?: number; timeoutMs?: number } = {}): Promise<string> {
  const runs = opts.runs ?? 40;
  const server = await startSdk2Http();
  try {
    let t0 = 0;
    let t1 = 0;
    let steps = 0;
    const onEvent = (e: FuzzEvent) => {
      if (e.type === 'fuzz-start') t0 = performance.now();
      if (e.type === 'sequence' && !e.startFailure) {
        t1 = performance.now();
        steps += e.steps;
      }
    };
    const r = await fuzz({ kind: 'http', url: server.url }, { specVersion: 'auto', seed: opts.seed ?? 1, runs, timeoutMs: opts.timeoutMs ?? 2_000, allowDestructive: false, allowOpenWorld: false, concurrency: 2, maxShrinkEvaluations: 1, onEvent });
    const fuzzSeconds = (t1 - t0) / 1000;
    const bySeq = new Map<string, Sent[]>();
    for (const e of r.recording.events()) {
      if (e.dir !== 'out' || e.channel !== 'http' || !e.http || !e.source?.startsWith('seq-')) continue;
      const list = bySeq.get(e.source) ?? [];
      list.push({ method: e.http.method, headers: e.http.headers, body: e.raw });
      bySeq.set(e.source, list);
    }
    const sequences = [...bySeq.values()];
    let next = 0;
    const p0 = performance.now();
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while (next < sequences.length) {
          for (const s of sequences[next++]) {
            const res = await fetch(server.url, { method: s.method, headers: s.headers, body: s.method === 'POST' ? s.body : undefined, signal: AbortSignal.timeout(opts.timeoutMs ?? 2_000) }).catch(() => undefined);
            await res?.text().catch(() => undefined);
          }
        }
      }),
    );
    const plainSeconds = (performance.now() - p0) / 1000;
    const requests = sequences.reduce((a, s) => a + s.length, 0);
    return [
      `${r.runs} sequences, ${steps} steps, ${requests} HTTP requests (fences included) against the SDK 2.x fixture (${r.era.version}) on one process`,
      '',
      '| loop | seconds | steps/s | fuzz / loop |',
      '|---|---|---|---|',
      `| mcpspec fuzz --url (2 sequences at a time) | ${fuzzSeconds.toFixed(2)} | ${(steps / fuzzSeconds).toFixed(1)} | 1.00x |`,
      `| plain fetch loop, the same requests, 2 sequences at a time | ${plainSeconds.toFixed(2)} | ${(steps / plainSeconds).toFixed(1)} | **${(plainSeconds / fuzzSeconds).toFixed(2)}x** (target >= 0.7x) |`,
      '',
      r.findings.length ? `findings (not shrunk here): ${r.findings.map((f) => `${f.check} at ${f.method}`).join('; ')}` : 'no findings',
    ].join('\n');
  } finally {
    server.stop();
  }
}
