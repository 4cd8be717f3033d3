// The nightly-style run of the planted-bug campaigns, by hand: each planted bug fuzzed with the
// budget of its test (test/integration/fuzz/) under N random seeds (default 10), printing the fraction of
// campaigns that found it and shrank it to its minimal sequence.
//
//   node dist/bench/fuzz-nightly.js [N] [bug ...]     (bugs: only these cases; e.g. to run cases in parallel)
import { join } from 'node:path';
import { packageRoot } from '../protocol/package-root.js';
import { fuzz, type FuzzOptions } from '../fuzz/server-campaign.js';
import type { ServerTarget } from '../runner/server-driver.js';

const PLANTED = join(packageRoot(), 'dist', 'fixtures', 'servers', 'planted', 'main.js');

interface Case {
  bug: string;
  key: string;
  minimal: number;
  budget: Partial<FuzzOptions>;
  features?: string[];
  http?: boolean;
}

const CASES: Case[] = [
  { bug: 'crash-after-list', key: 'robustness.stays-up|tools/call lookup', minimal: 2, budget: {} },
  { bug: 'crash-after-list', key: 'robustness.stays-up|tools/call lookup', minimal: 2, budget: {}, http: true },
  { bug: 'hang-long', key: 'robustness.keeps-answering|tools/call echo', minimal: 1, budget: { timeoutMs: 1500 } },
  { bug: 'bad-optional', key: 'wire.schema|tools/call greet', minimal: 1, budget: {} },
  { bug: 'trim-ids', key: 'jsonrpc.id-echo|', minimal: 1, budget: { runs: 10, timeoutMs: 1000, methods: ['ping', 'tools/list'] } },
  { bug: 'unsubscribe-crash', key: 'robustness.stays-up|resources/unsubscribe', minimal: 2, budget: { runs: 20 }, features: ['--subscriptions'] },
  { bug: 'split-reads', key: 'jsonrpc.answers-requests|split write', minimal: 1, budget: { runs: 20 } },
  { bug: 'lax-version-header', key: 'robustness.rejects-near-valid|headers bad-protocol-version', minimal: 1, budget: { runs: 20 }, http: true },
];

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 10);
  if (!Number.isInteger(n) || n < 1) throw new Error(`the number of seeds must be a positive integer, got ${process.argv[2]}`);
  const seeds = Array.from({ length: n }, () => Math.floor(Math.random() * 2 ** 31));
  const only = process.argv.slice(3);
  console.log(`seeds: ${seeds.join(', ')}\n`);
  const rows: string[] = ['| planted bug | found | shrunk to minimal |', '|---|---|---|'];
  for (const c of CASES.filter((x) => only.length === 0 || only.includes(x.bug))) {
    let found = 0;
    let minimal = 0;
    const args = [PLANTED, ...(c.features ?? []), '--bug', c.bug];
    for (const seed of seeds) {
      const target: ServerTarget = c.http ? { kind: 'http', url: 'http://127.0.0.1:{port}/mcp' } : { kind: 'stdio', command: process.execPath, args };
      const opts: FuzzOptions = { specVersion: '2025-11-25', runs: 30, timeoutMs: 2000, allowDestructive: false, allowOpenWorld: false, ...c.budget, seed };
      if (c.http) opts.start = { command: process.execPath, args: [...args, '--http', '--port', '{port}'] };
      const r = await fuzz(target, opts);
      const f = r.findings.find((x) => x.key.startsWith(c.key));
      if (f) found++;
      if (f?.reproduced && f.steps.length === c.minimal) minimal++;
      console.log(`${c.http ? 'http ' : ''}${c.bug} seed ${seed}: ${f ? `found in ${f.count}/${r.runs} sequences, shrunk to ${f.steps.length} step(s)${f.reproduced ? '' : ', not reproduced'}` : 'not found'}`);
    }
    rows.push(`| ${c.bug}${c.http ? ' (HTTP)' : ''} | ${found}/${n} | ${minimal}/${n} |`);
  }
  console.log(`\n${rows.join('\n')}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
