import type { Argv } from 'yargs';
import { catalogue } from '../../suites/catalogue.js';
import { UsageError } from '../usage-error.js';

export function listOptions(y: Argv) {
  return y
    .option('spec-version', { type: 'string', describe: 'only checks that apply to this version' })
    .option('json', { type: 'boolean', default: false, describe: 'print the catalogue as JSON' });
}

/** Print the check catalogue: id, level, requirement IDs, title. */
export function runList(args: { 'spec-version'?: string; json: boolean }): void {
  const v = args['spec-version'];
  if (v && !['2026-07-28', '2025-11-25', '2025-06-18'].includes(v)) throw new UsageError(`unknown --spec-version ${v}; known: 2026-07-28, 2025-11-25, 2025-06-18`);
  const rows = catalogue(v);
  if (args.json) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  const w = Math.max(...rows.map((r) => r.id.length));
  for (const r of rows) {
    const where = [r.versions.join(','), r.transports?.join(',')].filter(Boolean).join(' ');
    console.log(`${r.id.padEnd(w)}  ${r.level.padEnd(6)}  ${r.requirements.join(',').padEnd(14)}  ${r.title}  [${where}]`);
  }
  console.log(`${rows.length} checks`);
}
