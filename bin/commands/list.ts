import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Argv } from 'yargs';
import { packageRoot } from '../../protocol/package-root.js';
import { isSpecVersion, SPEC_VERSIONS, type SpecVersion } from '../../protocol/versions.js';
import type { Role } from '../../results/check-record.js';
import { catalogueMarkdown, type FaultNote } from '../../reports/catalogue-markdown.js';
import { officialDifferences, officialMapMarkdown, officialMapRows, officialMapText, officialMapTotals } from '../../reports/official-map-view.js';
import { renderSuiteTraceability, traceSuite } from '../../reports/suite-traceability.js';
import { requirementById } from '../../protocol/requirements.js';
import { matchesGlobs } from '../../runner/globs.js';
import { catalogue } from '../../suites/catalogue.js';
import { UsageError } from '../usage-error.js';

const FORMATS = ['text', 'json', 'md'] as const;

export function listOptions(y: Argv) {
  return y
    .option('spec-version', { type: 'string', describe: 'only checks that apply to this version' })
    .option('role', { type: 'string', choices: ['server', 'client'], describe: 'only checks on a server, or on a client, under test' })
    .option('only', { type: 'string', array: true, describe: 'only checks whose id matches a glob (tools.*, *.unknown-*); repeatable or comma-separated' })
    .option('requirement', { type: 'string', array: true, describe: 'only checks citing a requirement ID (CA-02), from the requirements digest; repeatable or comma-separated' })
    .option('format', { type: 'string', default: 'text', choices: FORMATS as unknown as string[], describe: 'text, json, or md (the page docs/checks.md)' })
    .option('json', { type: 'boolean', default: false, describe: 'same as --format json' })
    .option('official', { type: 'boolean', default: false, describe: 'every check of the official conformance suite beside the mcpspec checks that judge its rule, with totals and reasons (--format md: docs/official-suite-map.md)' })
    .option('traceability', { type: 'boolean', default: false, describe: 'per requirement of the digest, the checks citing it (or none), counted per section and per SEP; --role, --spec-version and --requirement narrow it' });
}

/** The reference fixture's fault catalogue, shipped beside the code in dist/. */
async function faults(kind: 'servers' | 'clients' = 'servers'): Promise<FaultNote[]> {
  const file = join(packageRoot(), 'dist', 'fixtures', kind, 'reference', 'faults.js');
  if (!existsSync(file)) return [];
  const list = ((await import(pathToFileURL(file).href)) as { FAULTS: (FaultNote & { does?: string })[] }).FAULTS;
  return list.map((f) => ({ ...f, description: f.description ?? f.does ?? '' }));
}

/** Print the check catalogue: id, level, requirement IDs, title. */
export async function runList(args: { 'spec-version'?: string; json: boolean; format: string; role?: string; only?: string[]; requirement?: string[]; traceability?: boolean; official?: boolean }): Promise<void> {
  const v = args['spec-version'];
  if (v && !isSpecVersion(v)) throw new UsageError(`unknown --spec-version ${v}; known: ${SPEC_VERSIONS.join(', ')}`);
  const split = (xs: string[] | undefined) => (xs ?? []).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
  const only = split(args.only);
  const requirements = new Set(split(args.requirement).map((r) => r.toUpperCase()));
  if (args.traceability && args.official) throw new UsageError('--official and --traceability are two views: pick one');
  if (args.traceability) return listTraceability(args, requirements, only);
  if (args.official) return listOfficial(args, only, requirements);
  const filtered = only.length > 0 || requirements.size > 0 || args.role !== undefined;
  if (filtered && args.format === 'md') throw new UsageError('--format md prints the whole catalogue (docs/checks.md); drop --role, --only and --requirement, or use text or json');
  const rows = catalogue(v).filter((r) => (!args.role || r.role === args.role) && matchesGlobs(r.id, only, undefined) && (requirements.size === 0 || r.requirements.some((id) => requirements.has(id))));
  if (filtered && rows.length === 0) throw new UsageError(`no check matches${args.role ? ` --role ${args.role}` : ''}${only.length ? ` --only ${only.join(',')}` : ''}${requirements.size ? ` --requirement ${[...requirements].join(',')}` : ''}${v ? ` in ${v}` : ''}`);
  const format = args.json ? 'json' : args.format;
  if (format === 'json') {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  if (format === 'md') {
    process.stdout.write(catalogueMarkdown(rows, await faults(), await faults('clients'), officialDifferences()));
    return;
  }
  const w = Math.max(...rows.map((r) => r.id.length));
  for (const r of rows) {
    const where = [r.versions.join(','), r.requires.transports?.join(','), r.kind === 'oracle' ? 'oracle' : ''].filter(Boolean).join(' ');
    console.log(`${r.id.padEnd(w)}  ${r.level.padEnd(6)}  ${r.requirements.join(',').padEnd(14)}  ${r.title}  [${where}]`);
  }
  console.log(`${rows.length} check${rows.length === 1 ? '' : 's'}`);
}

/** `--traceability`: the requirements and the checks citing them, instead of the checks. */
function listTraceability(args: { 'spec-version'?: string; json: boolean; format: string; role?: string }, requirements: Set<string>, only: string[]): void {
  if (only.length) throw new UsageError('--traceability lists requirements: narrow it with --role, --spec-version or --requirement, not --only');
  if (args.format === 'md') throw new UsageError('--traceability prints text or json, not --format md');
  const unknown = [...requirements].filter((id) => !requirementById(id));
  if (unknown.length) throw new UsageError(`unknown --requirement ${unknown.join(', ')}: not an ID of the requirements digest or docs/requirements-authorization.md`);
  const scope = { ...(args.role ? { role: args.role as Role } : {}), ...(args['spec-version'] ? { version: args['spec-version'] as SpecVersion } : {}) };
  const view = traceSuite(catalogue(), scope, requirements.size ? requirements : undefined);
  if (args.json || args.format === 'json') console.log(JSON.stringify(view, null, 2));
  else process.stdout.write(renderSuiteTraceability(view));
}

/** `--official`: the official suite's checks and their mcpspec counterparts, instead of the checks. */
function listOfficial(args: { 'spec-version'?: string; json: boolean; format: string; role?: string }, only: string[], requirements: Set<string>): void {
  if (only.length || requirements.size || args['spec-version']) throw new UsageError('--official lists the official suite\'s checks: narrow it with --role only');
  const all = catalogue();
  const roles = args.role ? [args.role as Role] : (['server', 'client'] as const);
  if (args.json || args.format === 'json') {
    const view = roles.map((role) => ({ ...officialMapTotals(role, all.filter((c) => c.role === role).map((c) => c.id)), checks: officialMapRows(role) }));
    console.log(JSON.stringify(view, null, 2));
  } else if (args.format === 'md') {
    if (args.role) throw new UsageError('--official --format md prints the whole page (docs/official-suite-map.md); drop --role');
    process.stdout.write(officialMapMarkdown(all));
  } else process.stdout.write(officialMapText(all, roles));
}
