import { benchArbitraries, formatArbitraryBench } from './arbitraries-bench.js';

/** `npm run bench`: throughput figures, measured in one run; never part of the tests. */
async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  console.log('## Arbitraries: values per second (generation only; validation untimed), 20 values per definition\n');
  console.log(formatArbitraryBench(benchArbitraries(20, only.length ? only : undefined)));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
