import { benchArbitraries, formatArbitraryBench } from './arbitraries-bench.js';
import { benchServer } from './server-bench.js';

/** `npm run bench`: throughput figures, measured in one run; never part of the tests. */
async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  console.log('## Arbitraries: values per second (generation only; validation untimed), 20 values per definition\n');
  console.log(formatArbitraryBench(benchArbitraries(20, only.length ? only : undefined)));
  console.log('\n## Server suite against @modelcontextprotocol/server-everything (seed 1, 20 runs)\n');
  console.log(await benchServer());
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
