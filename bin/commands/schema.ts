import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import type { Argv } from 'yargs';
import { definitionArbitraries } from '../../arbitraries/schema-arbitraries.js';
import { diffSchemas, sharedDefinitions, type DefinitionPair } from '../../arbitraries/schema-diff.js';
import { loadSchema, loadSchemaFile, SchemaLookupError, SPEC_VERSIONS, VENDORED_SCHEMAS, type SchemaDocument } from '../../protocol/schema-registry.js';
import { NotMutableError } from '../../arbitraries/near-valid.js';
import { UsageError } from '../usage-error.js';
import { diffLines, diffSummary, type DiffRun } from './schema-diff-output.js';

interface SchemaSource {
  'spec-version'?: string;
  schema?: string;
}

function openDocument(args: SchemaSource): SchemaDocument {
  if (args.schema && args['spec-version']) throw new UsageError('give either --schema or --spec-version, not both');
  try {
    return args.schema ? loadSchemaFile(args.schema) : loadSchema(args['spec-version'] ?? '2026-07-28');
  } catch (e) {
    if (e instanceof SchemaLookupError) throw new UsageError(e.message);
    throw e;
  }
}

/** A `schema diff` operand: a vendored schema's name, else a file. */
function openOperand(arg: string): SchemaDocument {
  try {
    if (Object.hasOwn(VENDORED_SCHEMAS, arg)) return loadSchema(arg);
    if (existsSync(arg)) return loadSchemaFile(arg);
  } catch (e) {
    if (e instanceof SchemaLookupError) throw new UsageError(e.message);
    throw e;
  }
  throw new UsageError(`"${arg}" is neither a vendored schema (${Object.keys(VENDORED_SCHEMAS).join(', ')}) nor a file`);
}

/** `--defs X` compares X with X; `--defs X=Y` compares A's X with B's Y (names or pointers). */
function parsePairs(raw: unknown, a: SchemaDocument, b: SchemaDocument): DefinitionPair[] | undefined {
  if (raw === undefined) return undefined;
  const items = (Array.isArray(raw) ? raw : [raw]).flatMap((x) => String(x).split(',')).map((x) => x.trim()).filter(Boolean);
  return items.map((item) => {
    const [left, right = left] = item.split('=');
    try {
      a.pointerOf(left);
      b.pointerOf(right);
    } catch (e) {
      if (e instanceof SchemaLookupError) throw new UsageError(`--defs ${item}: ${e.message}`);
      throw e;
    }
    return { name: item, a: left, b: right };
  });
}

function positiveInteger(raw: unknown, option: string, min: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${option} must be an integer of at least ${min}, got "${raw}"`);
  return n;
}

function parseSeed(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new UsageError(`--seed must be an integer, got "${raw}"`);
  return n;
}

export function schemaCommand(y: Argv): Argv {
  return y
    .command(
      'gen <definition>',
      'print generated values of a schema definition as NDJSON (near-valid ones with --invalid, each with its label)',
      (c) =>
        c
          .positional('definition', { type: 'string', describe: 'definition name (CallToolRequest) or pointer (#/$defs/JSONRPCMessage)' })
          .option('spec-version', { type: 'string', describe: `vendored schema: ${Object.keys(VENDORED_SCHEMAS).join(', ')} (default 2026-07-28)` })
          .option('schema', { type: 'string', describe: 'a JSON Schema file instead of a vendored schema' })
          .option('invalid', { type: 'boolean', default: false, describe: 'near-valid values: exactly one constraint broken, labelled' })
          .option('n', { type: 'number', default: 10, describe: 'how many values' })
          .option('seed', { type: 'string', describe: 'random seed; the same seed prints the same values' })
          .option('max-depth', { type: 'number', default: 4, describe: 'nesting depth that may hold optional content' }),
      (args) => {
        const doc = openDocument(args);
        const n = Number(args.n);
        if (!Number.isInteger(n) || n < 0) throw new UsageError(`-n must be a non-negative integer, got "${args.n}"`);
        let arbs;
        try {
          arbs = definitionArbitraries(doc, String(args.definition), { specVersion: args['spec-version'], maxDepth: args['max-depth'] });
        } catch (e) {
          if (e instanceof SchemaLookupError) throw new UsageError(e.message);
          throw e;
        }
        const seed = parseSeed(args.seed) ?? Date.now() % 2 ** 31;
        let values: unknown[];
        try {
          values = args.invalid ? fc.sample(arbs.nearValid, { numRuns: n, seed }) : fc.sample(arbs.valid, { numRuns: n, seed });
        } catch (e) {
          if (e instanceof NotMutableError) throw new UsageError(`${args.definition}: ${e.message}`);
          throw e;
        }
        process.stdout.write(values.map((v) => JSON.stringify(v)).join('\n') + (values.length ? '\n' : ''));
        if (args.seed === undefined) process.stderr.write(`seed: ${seed}\n`);
      },
    )
    .command(
      'validate [file]',
      'validate NDJSON lines (a file or - for stdin) against a definition; exit 1 if any line is invalid',
      (c) =>
        c
          .positional('file', { type: 'string', default: '-', describe: 'NDJSON file, or - for standard input' })
          .option('def', { type: 'string', default: 'JSONRPCMessage', describe: 'definition name or pointer' })
          .option('spec-version', { type: 'string', describe: 'vendored schema (default 2026-07-28)' })
          .option('schema', { type: 'string', describe: 'a JSON Schema file instead of a vendored schema' }),
      async (args) => {
        const doc = openDocument(args);
        let validate;
        try {
          validate = doc.validator(String(args.def));
        } catch (e) {
          if (e instanceof SchemaLookupError) throw new UsageError(e.message);
          throw e;
        }
        const file = String(args.file);
        if (file !== '-' && !existsSync(file)) throw new UsageError(`cannot read ${file}: no such file`);
        const input = file === '-' ? process.stdin : createReadStream(file);
        let lineNo = 0;
        let bad = 0;
        let good = 0;
        for await (const line of createInterface({ input, crlfDelay: Infinity })) {
          lineNo++;
          if (line.trim() === '') continue;
          let value: unknown;
          try {
            value = JSON.parse(line);
          } catch (e) {
            bad++;
            console.log(`line ${lineNo}: not JSON: ${(e as Error).message}`);
            continue;
          }
          if (validate(value)) {
            good++;
            continue;
          }
          bad++;
          const errs = (validate.errors ?? []).slice(0, 3).map((er) => `${er.instancePath || '/'} ${er.keyword}: ${er.message}`);
          console.log(`line ${lineNo}: invalid: ${errs.join('; ')}`);
        }
        console.log(`${good} valid, ${bad} invalid (${args.def})`);
        if (bad > 0) process.exitCode = 1;
      },
    )
    .command(
      'diff <a> <b>',
      'compare two schemas: values of every shared definition that one accepts and the other refuses, shrunk; exit 1 if any',
      (c) =>
        c
          .positional('a', { type: 'string', describe: 'vendored schema name (2026-07-28) or JSON Schema file' })
          .positional('b', { type: 'string', describe: 'vendored schema name or JSON Schema file' })
          .option('defs', { type: 'string', array: true, describe: 'only these definitions (X, or X=Y to compare A\'s X with B\'s Y); comma-separated or repeated' })
          .option('n', { type: 'number', default: 100, describe: 'values per definition per side (half valid, half near-valid)' })
          .option('seed', { type: 'string', describe: 'random seed; the same seed prints the same report' })
          .option('max-shrinks', { type: 'number', default: 500, describe: 'shrink candidates judged per witness at most' })
          .option('json', { type: 'boolean', default: false, describe: 'NDJSON: one line per disagreement, then a summary line' }),
      (args) => {
        const [a, b] = [openOperand(String(args.a)), openOperand(String(args.b))];
        const pairs = parsePairs(args.defs, a, b);
        if (!pairs && sharedDefinitions(a, b).length === 0) throw new UsageError(`${args.a} and ${args.b} share no definition name (compare two with --defs X=Y)`);
        const n = positiveInteger(args.n, 'n', 1);
        const maxShrinks = positiveInteger(args['max-shrinks'], 'max-shrinks', 0);
        const seed = parseSeed(args.seed) ?? Date.now() % 2 ** 31;
        // Realistic protocolVersion strings where an operand is a spec version.
        const gen = (x: string) => ((SPEC_VERSIONS as readonly string[]).includes(x) ? { specVersion: x } : {});
        const result = diffSchemas(a, b, { seed, n, pairs, maxShrinks, generation: { A: gen(String(args.a)), B: gen(String(args.b)) } });
        const run: DiffRun = { a: String(args.a), b: String(args.b), seed, n, result };
        if (args.seed === undefined) process.stderr.write(`seed: ${seed}\n`);
        for (const line of diffLines(run, args.json)) process.stdout.write(`${line}\n`);
        process.stdout.write(`${diffSummary(run, args.json)}\n`);
        if (result.compared.some((d) => d.causes.length > 0)) process.exitCode = 1;
      },
    )
    .demandCommand(1, 'say gen, validate or diff');
}
