import fc from 'fast-check';
import { generateSync } from 'json-schema-faker';
import { definitionArbitraries } from '../arbitraries/schema-arbitraries.js';
import { loadSchema, VENDORED_SCHEMAS } from '../protocol/schema-registry.js';
import { confirms } from '../arbitraries/near-valid.js';

export interface GeneratorFigures {
  values: number;
  seconds: number;
  perSecond: number;
  /** Share of values that do what they claim: valid ones pass ajv; near-valid ones fail it as labelled. */
  rate: number;
  /** Mean JSON size of the values: throughput means little without it. */
  meanBytes: number;
}

export interface SchemaBenchRow {
  schema: string;
  definitions: number;
  buildMs: number;
  mcpspecValid: GeneratorFigures;
  mcpspecNearValid: GeneratorFigures;
  jsonSchemaFaker: GeneratorFigures & { errors: number };
}

function figures(values: number, ms: number, good: number, bytes: number): GeneratorFigures {
  return { values, seconds: ms / 1000, perSecond: Math.round(values / (ms / 1000)), rate: values ? good / values : 0, meanBytes: values ? Math.round(bytes / values) : 0 };
}

const size = (v: unknown): number => JSON.stringify(v)?.length ?? 0;

/**
 * Values per second and validity per vendored schema, for mcpspec (valid and near-valid) and
 * json-schema-faker on the same definitions in the same process. Validation is not timed.
 */
export function benchArbitraries(perDefinition = 20, only?: string[]): SchemaBenchRow[] {
  const rows: SchemaBenchRow[] = [];
  for (const key of Object.keys(VENDORED_SCHEMAS)) {
    if (only && !only.includes(key)) continue;
    const doc = loadSchema(key);
    const defs = doc.definitions();
    const t0 = performance.now();
    const arbs = defs.map((d) => ({ d, a: definitionArbitraries(doc, d, { specVersion: key }) }));
    for (const { a } of arbs) {
      // warm caches and ajv (valid and near-valid), so the timed part measures steady generation
      fc.sample(a.valid, { numRuns: 1, seed: 1 });
      try {
        fc.sample(a.nearValid, { numRuns: 1, seed: 1 });
      } catch {
        /* no near-valid values for this definition */
      }
    }
    const buildMs = performance.now() - t0;

    let vCount = 0, vGood = 0, vMs = 0, vBytes = 0;
    let nCount = 0, nGood = 0, nMs = 0, nBytes = 0;
    for (const { d, a } of arbs) {
      let t = performance.now();
      const vals = fc.sample(a.valid, { numRuns: perDefinition, seed: 11 });
      vMs += performance.now() - t;
      vCount += vals.length;
      vGood += vals.filter((v) => a.validate(v)).length;
      vBytes += vals.reduce((n: number, v) => n + size(v), 0);
      let near;
      try {
        t = performance.now();
        near = fc.sample(a.nearValid, { numRuns: perDefinition, seed: 12 });
        nMs += performance.now() - t;
      } catch {
        continue; // definitions that accept every value have no near-valid values
      }
      const check = doc.validator(d);
      nCount += near.length;
      nGood += near.filter((x) => confirms(check, x.value, x.label)).length;
      nBytes += near.reduce((n: number, x) => n + size(x.value), 0);
    }

    let jCount = 0, jGood = 0, jMs = 0, jErrors = 0, jBytes = 0;
    const defsKey = doc.defsKey ?? '$defs';
    for (const d of defs) {
      const schema = { $schema: doc.root.$schema, [defsKey]: doc.root[defsKey], $ref: doc.pointerOf(d) };
      const check = doc.validator(d);
      for (let i = 0; i < perDefinition; i++) {
        const t = performance.now();
        let v: unknown;
        try {
          v = generateSync(schema as never, { seed: 1000 + i } as never);
        } catch {
          jErrors++;
          jMs += performance.now() - t;
          jCount++;
          continue;
        }
        jMs += performance.now() - t;
        jCount++;
        jBytes += size(v);
        if (check(v)) jGood++;
      }
    }
    rows.push({
      schema: key,
      definitions: defs.length,
      buildMs: Math.round(buildMs),
      mcpspecValid: figures(vCount, vMs, vGood, vBytes),
      mcpspecNearValid: figures(nCount, nMs, nGood, nBytes),
      jsonSchemaFaker: { ...figures(jCount, jMs, jGood, jBytes), errors: jErrors },
    });
  }
  return rows;
}

export function formatArbitraryBench(rows: SchemaBenchRow[]): string {
  const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
  const lines = [
    '| schema | defs | mcpspec valid/s | valid rate | mean bytes | mcpspec near-valid/s | labelled-invalid rate | json-schema-faker/s | jsf valid rate | jsf mean bytes | valid speed-up |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.schema} | ${r.definitions} | ${r.mcpspecValid.perSecond} | ${pct(r.mcpspecValid.rate)} | ${r.mcpspecValid.meanBytes} | ${r.mcpspecNearValid.perSecond} | ${pct(r.mcpspecNearValid.rate)} | ${r.jsonSchemaFaker.perSecond} | ${pct(r.jsonSchemaFaker.rate)}${r.jsonSchemaFaker.errors ? ` (${r.jsonSchemaFaker.errors} threw)` : ''} | ${r.jsonSchemaFaker.meanBytes} | ${(r.mcpspecValid.perSecond / Math.max(1, r.jsonSchemaFaker.perSecond)).toFixed(1)}x |`,
    );
  }
  return lines.join('\n');
}
