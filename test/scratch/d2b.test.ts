import { it } from 'vitest';
import { runReference } from '../suites/run-reference.js';
it('run', async () => {
  const run = await runReference('http', (process.env.D2V ?? '2026-07-28') as any, [process.env.D2F ?? 'jsonrpc.id-echo']);
  const bad = run.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => `${c.id}: ${c.status}: ${c.message}`);
  console.log(bad.join('\n'));
  console.log(run.recording.events().filter((e) => e.kind === 'process-exit' || e.channel === 'stderr').map((e) => `${e.seq} ${e.raw.slice(0, 300)}`).join('\n'));
}, 120000);
