import fc from 'fast-check';
import { generateSync } from 'json-schema-faker';
import { definitionArbitraries } from '../arbitraries/schema-arbitraries.js';
import { compileDefinition } from '../arbitraries/compiled.js';
import { Rng } from '../arbitraries/rng.js';
import { loadSchema, VENDORED_SCHEMAS } from '../protocol/schema-registry.js';
import { confirms, type NearValid } from '../arbitraries/near-valid.js';

export interface GeneratorFigures {
  values: number;
  seconds: number;
  perSecond: number;
  /** Share of values that do what they claim: valid ones pass ajv; near-valid ones fail it as labelled. */
  rate: number;
  /** Mean JSON size of the values: throughput means little without it. */
  meanBytes: number;
  /** Values per second of this process's CPU time: unlike wall time, not lowered by other processes on a loaded machine. */
  perCpuSecond: number;
}

export interface SchemaBenchRow {
  schema: string;
  definitions: number;
  buildMs: number;
  /** The compiled generators (arbitraries/compiled.ts): bulk and fuzz generation. */
  mcpspecValid: GeneratorFigures;
  mcpspecNearValid: GeneratorFigures;
  /** The fast-check arbitraries (shrinkable), for comparison. */
  arbitraryValid: GeneratorFigures;
  arbitraryNearValid: GeneratorFigures;
  jsonSchemaFaker: GeneratorFigures & { errors: number };
}

function figures(values: number, ms: number, good: number, bytes: number, cpuMs: number): GeneratorFigures {
  return {
    values, seconds: ms / 1000, perSecond: Math.round(values / (ms / 1000)), rate: values ? good / values : 0, meanBytes: values ? Math.round(bytes / values) : 0,
    perCpuSecond: Math.round(values / (Math.max(cpuMs, 0.001) / 1000)),
  };
}

/** Wall and CPU clocks, in ms. */
function now(): { wall: number; cpu: number } {
  const u = process.cpuUsage();
  return { wall: performance.now(), cpu: (u.user + u.system) / 1000 };
}

/** Adds the time since `t` to a tally. */
function stop(into: { ms: number; cpuMs: number }, t: { wall: number; cpu: number }): void {
  const e = now();
  into.ms += e.wall - t.wall;
  into.cpuMs += e.cpu - t.cpu;
}

const size = (v: unknown): number => JSON.stringify(v)?.length ?? 0;

interface Tally {
  count: number;
  good: number;
  ms: number;
  cpuMs: number;
  bytes: number;
}
const tally = (): Tally => ({ count: 0, good: 0, ms: 0, cpuMs: 0, bytes: 0 });
const toFigures = (t: Tally): GeneratorFigures => figures(t.count, t.ms, t.good, t.bytes, t.cpuMs);

/** Warm-up each generator gets at least, untimed, in CPU time (in whole passes over every definition). */
const WARM_UP_MS = 300;
/** Measured CPU time each generator gets at least (in whole passes over every definition). */
const MIN_MEASURED_MS = 500;

/**
 * Runs untimed passes for WARM_UP_MS (at least one: the JIT and every cache warm up), then timed
 * passes until MIN_MEASURED_MS of generation time is measured, summing the tallies. The same for
 * every generator (json-schema-faker included), so the figures compare steady generation, and a
 * descheduled moment on a loaded machine weighs little.
 */
function steady<T extends Tally[]>(pass: (round: number) => T): T {
  // Both limits count CPU time: on a loaded machine, wall time would mostly measure other processes.
  const start = now().cpu;
  let round = 0;
  do pass(round++);
  while (now().cpu - start < WARM_UP_MS && round < 1000);
  const sum = pass(round++);
  for (; sum.reduce((ms, t) => ms + t.cpuMs, 0) < MIN_MEASURED_MS && round < 1000; round++) {
    pass(round).forEach((t, i) => {
      const into = sum[i] as Tally & { errors?: number };
      into.count += t.count;
      into.good += t.good;
      into.ms += t.ms;
      into.cpuMs += t.cpuMs;
      into.bytes += t.bytes;
      if ('errors' in t) into.errors = (into.errors ?? 0) + (t as { errors: number }).errors;
    });
  }
  return sum;
}

/**
 * Values per second and validity per vendored schema, for mcpspec's compiled generators (valid and
 * near-valid), its fast-check arbitraries and json-schema-faker, on the same definitions in the same
 * process. Validation is not timed.
 */
export function benchArbitraries(perDefinition = 20, only?: string[]): SchemaBenchRow[] {
  const rows: SchemaBenchRow[] = [];
  for (const key of Object.keys(VENDORED_SCHEMAS)) {
    if (only && !only.includes(key)) continue;
    const doc = loadSchema(key);
    const defs = doc.definitions();
    const t0 = performance.now();
    const gens = defs.map((d) => ({ d, g: compileDefinition(doc, d, { specVersion: key }) }));
    for (const { g } of gens) {
      // compile the lazily built parts (break sites) too
      g.valid(new Rng(1));
      if (g.canBreak) g.nearValid(new Rng(1));
    }
    const buildMs = performance.now() - t0;
    const arbs = defs.map((d) => ({ d, a: definitionArbitraries(doc, d, { specVersion: key }) }));

    // Each pass times the generation of every definition's values in one stretch (reading two clocks
    // per value would weigh on generators this fast), then validates and measures them untimed.
    const checks = gens.map(({ d }) => doc.validator(d));
    const [cValid, cNear] = steady((round) => {
      const v = tally();
      const n = tally();
      const vals: unknown[][] = [];
      let t = now();
      for (const { g } of gens) {
        const r = new Rng(11 + round * 1000);
        const out: unknown[] = [];
        for (let i = 0; i < perDefinition; i++) out.push(g.valid(r));
        vals.push(out);
      }
      stop(v, t);
      const near: NearValid[][] = [];
      t = now();
      for (const { g } of gens) {
        const out: NearValid[] = [];
        // definitions that accept every value have no near-valid values
        if (g.canBreak) {
          const r = new Rng(12 + round * 1000);
          for (let i = 0; i < perDefinition; i++) out.push(g.nearValid(r));
        }
        near.push(out);
      }
      stop(n, t);
      gens.forEach((_, k) => {
        const check = checks[k];
        v.count += vals[k].length;
        v.good += vals[k].filter((x) => check(x)).length;
        v.bytes += vals[k].reduce((b: number, x) => b + size(x), 0);
        n.count += near[k].length;
        n.good += near[k].filter((x) => confirms(check, x.value, x.label)).length;
        n.bytes += near[k].reduce((b: number, x) => b + size(x.value), 0);
      });
      return [v, n] as [Tally, Tally];
    });

    const [aValid, aNear] = steady((round) => {
      const v = tally();
      const n = tally();
      for (const { d, a } of arbs) {
        let t = now();
        const vals = fc.sample(a.valid, { numRuns: perDefinition, seed: 11 + round * 1000 });
        stop(v, t);
        v.count += vals.length;
        v.good += vals.filter((x) => a.validate(x)).length;
        v.bytes += vals.reduce((k: number, x) => k + size(x), 0);
        let near;
        try {
          t = now();
          near = fc.sample(a.nearValid, { numRuns: perDefinition, seed: 12 + round * 1000 });
          stop(n, t);
        } catch {
          continue; // definitions that accept every value have no near-valid values
        }
        const check = doc.validator(d);
        n.count += near.length;
        n.good += near.filter((x) => confirms(check, x.value, x.label)).length;
        n.bytes += near.reduce((k: number, x) => k + size(x.value), 0);
      }
      return [v, n] as [Tally, Tally];
    });

    const defsKey = doc.defsKey ?? '$defs';
    const jsfSchemas = defs.map((d) => ({ $schema: doc.root.$schema, [defsKey]: doc.root[defsKey], $ref: doc.pointerOf(d) }));
    const [jsf] = steady((round) => {
      const j = { ...tally(), errors: 0 };
      const THREW = Symbol('threw');
      const vals: unknown[][] = [];
      const t = now();
      for (const schema of jsfSchemas) {
        const out: unknown[] = [];
        for (let i = 0; i < perDefinition; i++) {
          try {
            out.push(generateSync(schema as never, { seed: 1000 + round * perDefinition + i } as never));
          } catch {
            out.push(THREW);
          }
        }
        vals.push(out);
      }
      stop(j, t);
      defs.forEach((_, k) => {
        for (const v of vals[k]) {
          j.count++;
          if (v === THREW) {
            j.errors++;
            continue;
          }
          j.bytes += size(v);
          if (checks[k](v)) j.good++;
        }
      });
      return [j];
    });
    rows.push({
      schema: key,
      definitions: defs.length,
      buildMs: Math.round(buildMs),
      mcpspecValid: toFigures(cValid),
      mcpspecNearValid: toFigures(cNear),
      arbitraryValid: toFigures(aValid),
      arbitraryNearValid: toFigures(aNear),
      jsonSchemaFaker: { ...toFigures(jsf), errors: jsf.errors },
    });
  }
  return rows;
}

export function formatArbitraryBench(rows: SchemaBenchRow[]): string {
  const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
  const ratio = (a: number, b: number) => `${(a / Math.max(1, b)).toFixed(1)}x`;
  const lines = [
    'mcpspec = the compiled generators (arbitraries/compiled.ts; bulk and fuzz generation); fast-check = the shrinkable arbitraries, for comparison.',
    `Each generator: untimed warm-up passes over every definition for ${WARM_UP_MS} ms of CPU time (at least one), then timed passes until ${MIN_MEASURED_MS} ms of its CPU time is measured.`,
    'Rates are values per second of wall time; "cpu" columns use this process\'s CPU time instead, which other processes on a loaded machine do not lower.',
    '',
    '| schema | defs | mcpspec valid/s | valid rate | mean bytes | mcpspec near-valid/s | labelled-invalid rate | near/valid | json-schema-faker/s | jsf valid rate | jsf mean bytes | valid speed-up | valid speed-up (cpu) | near/valid (cpu) | fast-check valid/s | fast-check near-valid/s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const v = r.mcpspecValid;
    const n = r.mcpspecNearValid;
    const j = r.jsonSchemaFaker;
    lines.push(
      `| ${r.schema} | ${r.definitions} | ${v.perSecond} | ${pct(v.rate)} | ${v.meanBytes} | ${n.perSecond} | ${pct(n.rate)} | ${(n.perSecond / Math.max(1, v.perSecond)).toFixed(2)} | ${j.perSecond} | ${pct(j.rate)}${j.errors ? ` (${j.errors} threw)` : ''} | ${j.meanBytes} | ${ratio(v.perSecond, j.perSecond)} | ${ratio(v.perCpuSecond, j.perCpuSecond)} | ${(n.perCpuSecond / Math.max(1, v.perCpuSecond)).toFixed(2)} | ${r.arbitraryValid.perSecond} | ${r.arbitraryNearValid.perSecond} |`,
    );
  }
  return lines.join('\n');
}
