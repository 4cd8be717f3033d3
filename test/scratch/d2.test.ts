import { it } from 'vitest';
import { runReference } from '../suites/run-reference.js';
const V = (process.env.D2V ?? '2025-11-25') as any;
const T = (process.env.D2T ?? 'stdio') as any;
const F = process.env.D2F ? process.env.D2F.split(',') : [];
it('run', async () => {
  const t0 = Date.now();
  const run = await runReference(T, V, F);
  const bad = run.checks.filter((c) => c.status !== 'pass' || c.id.startsWith('tasks.') || c.id.startsWith('subscriptions.')).map((c) => `${c.id}: ${c.status}: ${c.message}`);
  console.log(`${V} ${T} ${F} ${Date.now() - t0}ms\n` + bad.join('\n') + '\n' + JSON.stringify(run.findings.filter((f) => f.kind !== 'note')).slice(0, 1000));
}, 120000);
