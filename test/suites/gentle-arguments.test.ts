import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaArbitraries } from '../../arbitraries/schema-arbitraries.js';
import { schemaFromObject } from '../../protocol/schema-registry.js';
import { countsWork, gentleSchema, namesATime, nameWords } from '../../suites/tools/gentle-arguments.js';
import { nearValidArguments } from '../../suites/tools/scenario.js';

describe('gentle valid tool arguments', () => {
  it('recognises names of a time in every case style, and nothing else', () => {
    expect(nameWords('timeoutMs')).toEqual(['timeout', 'ms']);
    for (const n of ['duration', 'delayMs', 'timeout_seconds', 'sleep-for', 'pollInterval', 'WAIT', 'ttl']) expect(namesATime(n), n).toBe(true);
    for (const n of ['items', 'steps', 'count', 'timeZone', 'messages', 'params', 'minLength']) expect(namesATime(n), n).toBe(false);
  });

  it('recognises counts of rounds of work', () => {
    for (const n of ['steps', 'maxIterations', 'retries', 'repeat_count', 'attempts']) expect(countsWork(n), n).toBe(true);
    for (const n of ['count', 'limit', 'items', 'duration', 'stepName']) expect(countsWork(n), n).toBe(false);
  });

  it('caps numeric time members at max(1, minimum), at any depth, and leaves others alone', () => {
    const schema = {
      type: 'object',
      properties: {
        duration: { type: 'number' },
        steps: { type: 'number' },
        opts: { type: 'object', properties: { delayMs: { type: 'integer', minimum: 5 } } },
        waits: { type: 'array', items: { type: 'object', properties: { timeout: { type: ['number', 'null'] } } } },
        label: { type: 'string' },
      },
    };
    const g = gentleSchema(schema) as any;
    expect(g.properties.duration).toEqual({ type: 'number', maximum: 1 });
    expect(g.required).toEqual(['duration']); // left out, a tool's default (often seconds) applies
    expect(g.properties.opts.required).toEqual(['delayMs']);
    expect(g.properties.steps).toEqual({ type: 'number', maximum: 10 }); // a count of work: capped, not required
    expect(g.properties.opts.properties.delayMs).toEqual({ type: 'integer', minimum: 5, maximum: 5 });
    expect(g.properties.waits.items.properties.timeout.maximum).toBe(1);
    expect(schema.properties.duration).toEqual({ type: 'number' }); // the tool's own schema is untouched
    expect(gentleSchema({ type: 'object', properties: { label: { type: 'string' } } })).toEqual({ type: 'object', properties: { label: { type: 'string' } } });
  });

  it('never narrows a schema to nothing: an unsatisfiable cap is not applied', () => {
    const cases = [
      { type: 'integer', exclusiveMinimum: 1 },
      { type: 'integer', minimum: 3, multipleOf: 5 },
      { type: 'number', maximum: 0.5 },
    ];
    for (const c of cases) {
      const s = { type: 'object', properties: { timeout: c }, required: ['timeout'] };
      const g = gentleSchema(s);
      const validate = schemaFromObject(s, 'tool schema').validatorForNodes([s]);
      for (const v of fc.sample(schemaArbitraries(g).valid, { seed: 7, numRuns: 30 })) expect(validate(v), JSON.stringify(v)).toBe(true);
    }
  });

  it('valid arguments drawn from the gentle schema stay valid against the real one', () => {
    const s = { type: 'object', properties: { duration: { type: 'number', minimum: 0 }, steps: { type: 'integer' } }, required: ['duration'] };
    const validate = schemaFromObject(s, 'tool schema').validatorForNodes([s]);
    for (const v of fc.sample(schemaArbitraries(gentleSchema(s)).valid, { seed: 1, numRuns: 100 }) as { duration: number }[]) {
      expect(validate(v)).toBe(true);
      expect(v.duration).toBeLessThanOrEqual(1);
    }
  });

  it('near-valid arguments break the real schema, with times and counts beside the break kept small', () => {
    const s = { type: 'object', properties: { duration: { type: 'number' }, steps: { type: 'integer' }, label: { type: 'string', minLength: 2 } }, required: ['label'] };
    const real = schemaArbitraries(s, { maxDepth: 3 });
    const near = nearValidArguments(real, schemaArbitraries(gentleSchema(s), { maxDepth: 3 }), 3)!;
    const validate = schemaFromObject(s, 'tool schema').validatorForNodes([s]);
    const seen = new Set<string>();
    for (const nv of fc.sample(near, { seed: 3, numRuns: 200 }) as { value: Record<string, unknown>; label: { path: string; keyword: string } }[]) {
      expect(validate(nv.value), JSON.stringify(nv)).toBe(false); // a break of a gentle-only bound is no break
      seen.add(nv.label.path);
      if (!nv.label.path.startsWith('/duration') && typeof nv.value.duration === 'number') expect(nv.value.duration).toBeLessThanOrEqual(1);
      if (!nv.label.path.startsWith('/steps') && typeof nv.value.steps === 'number') expect(nv.value.steps).toBeLessThanOrEqual(10);
    }
    expect(seen.size).toBeGreaterThan(1); // breaks at more than one place
  });

  it('near-valid arguments fall back to the real schema, and are absent when every object is valid', () => {
    const only = { type: 'object', properties: { timeout: { type: 'number' } } };
    const real = schemaArbitraries(only);
    // The gentle schema's only breaks (a missing or too-large timeout) are valid for the real schema.
    const near = nearValidArguments(real, schemaArbitraries(gentleSchema(only)), 1)!;
    const validate = schemaFromObject(only, 'tool schema').validatorForNodes([only]);
    for (const nv of fc.sample(near, { seed: 1, numRuns: 50 })) expect(validate(nv.value)).toBe(false);
    const open = { type: 'object' };
    expect(nearValidArguments(schemaArbitraries(open), schemaArbitraries(open), 1)).toBeUndefined();
  });
});
