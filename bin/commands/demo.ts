import fc from 'fast-check';
import type { Argv } from 'yargs';
import { messages } from '../../arbitraries/messages.js';

const SHOWN: [string, 'request' | 'result'][] = [
  ['server/discover', 'request'],
  ['tools/call', 'request'],
  ['tools/list', 'result'],
  ['resources/read', 'request'],
];

/** A short tour of the generators: valid and near-valid 2026-07-28 messages with their labels. */
export function demoCommand(y: Argv): Argv {
  return y.option('seed', { type: 'number', default: 2026, describe: 'random seed' }).option('n', { type: 'number', default: 2, describe: 'values per kind' });
}

export function runDemo(args: { seed: number; n: number }): void {
  const m = messages('2026-07-28');
  for (const [method, kind] of SHOWN) {
    const arbs = kind === 'request' ? m.request(method) : m.result(method);
    console.log(`\n== ${method} ${kind} (${arbs.definition}, 2026-07-28)`);
    for (const v of fc.sample(arbs.valid, { numRuns: args.n, seed: args.seed })) console.log(`valid      ${clip(JSON.stringify(v))}`);
    for (const { value, label } of fc.sample(arbs.nearValid, { numRuns: args.n * 2, seed: args.seed })) {
      console.log(`near-valid ${label.keyword} at ${label.path || '/'}: ${label.mutation}`);
      console.log(`           ${clip(JSON.stringify(value))}`);
    }
  }
  console.log('\nMore: mcpspec schema gen <Definition> [--invalid] [-n N] [--seed S] [--spec-version V]');
}

function clip(s: string): string {
  return s.length > 220 ? `${s.slice(0, 217)}...` : s;
}
