// `npm run bench`: throughput figures, measured in one run; never part of the tests.
//
//   node dist/bench/run.js [SECTION...] [SCHEMA...] [--stress-runs=N]
//
// Sections: arbitraries, server, stress, official, startup, client, fuzz (all, in that order, when none is named).
// Other bare words select vendored schemas for the arbitraries section, as before.
// `--stress-runs=N` shrinks (or grows) the stress run, e.g. while developing.
import { benchArbitraries, formatArbitraryBench } from './arbitraries-bench.js';
import { benchClient } from './client-bench.js';
import { benchClientOfficial } from './client-official-bench.js';
import { benchFuzz } from './fuzz-bench.js';
import { benchFuzzHttp } from './fuzz-http-bench.js';
import { benchOfficial } from './official-bench.js';
import { benchServer } from './server-bench.js';
import { benchStartup } from './startup-bench.js';
import { benchStress, STRESS_DEFAULTS } from './stress-bench.js';

const SECTIONS = ['arbitraries', 'server', 'stress', 'official', 'startup', 'client', 'fuzz'] as const;
type Section = (typeof SECTIONS)[number];
const isSection = (a: string): a is Section => (SECTIONS as readonly string[]).includes(a);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const words = args.filter((a) => !a.startsWith('-'));
  const named = words.filter(isSection);
  const chosen = new Set<Section>(named.length ? named : SECTIONS);
  const only = words.filter((a) => !isSection(a));
  const runsArg = args.find((a) => a.startsWith('--stress-runs='));
  const stressRuns = runsArg ? Number(runsArg.slice('--stress-runs='.length)) : STRESS_DEFAULTS.runs;
  if (!Number.isInteger(stressRuns) || stressRuns < 1) throw new Error(`--stress-runs must be a positive integer, got ${runsArg}`);

  if (chosen.has('arbitraries')) {
    console.log('## Arbitraries: values per second (generation only; validation untimed), 20 values per definition\n');
    console.log(formatArbitraryBench(benchArbitraries(20, only.length ? only : undefined)));
  }
  if (chosen.has('server')) {
    console.log('\n## Server suite against @modelcontextprotocol/server-everything (seed 1, 20 runs)\n');
    console.log(await benchServer());
  }
  if (chosen.has('stress')) {
    console.log(`\n## Stress: ${stressRuns} server-suite runs against the reference fixture on a loaded machine (any non-zero exit is a false failure)\n`);
    console.log(await benchStress({ runs: stressRuns }));
  }
  if (chosen.has('official')) {
    console.log('\n## Official conformance suite beside mcpspec: full server runs over HTTP (the sdk2 fixture, server-everything)\n');
    console.log(await benchOfficial());
  }
  if (chosen.has('client')) {
    console.log(`\n## Client suite: mean wall time per client scenario beside the client's own run against a plain server\n\n${await benchClient()}`);
    console.log(`\n## Client suite beside the official client suite on the same harnesses (P4)\n\n${await benchClientOfficial()}`);
  }
  if (chosen.has('startup')) {
    console.log('\n## Startup and memory\n');
    console.log(await benchStartup());
  }
  if (chosen.has('fuzz')) {
    console.log(`\n## Fuzz throughput against server-everything over stdio, beside a plain JSON-RPC loop\n\n${await benchFuzz()}`);
    console.log(`\n## Fuzz throughput over Streamable HTTP, beside a plain fetch loop\n\n${await benchFuzzHttp()}`);
  }
}

main().then(
  // Exit explicitly: process.exit runs the exit hook that kills any child group still alive.
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
