import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import type { Argv } from 'yargs';
import { definitionArbitraries } from '../../arbitraries/schema-arbitraries.js';
import { loadSchema, loadSchemaFile, SchemaLookupError, VENDORED_SCHEMAS, type SchemaDocument } from '../../protocol/schema-registry.js';
import { NotMutableError } from '../../arbitraries/near-valid.js';
import { UsageError } from '../usage-error.js';

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
    .demandCommand(1, 'say gen or validate');
}
