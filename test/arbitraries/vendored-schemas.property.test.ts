import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definitionArbitraries, loadSchema, NotMutableError, VENDORED_SCHEMAS } from '../../arbitraries/index.js';
import { independentValidator } from './independent-ajv.js';

const exclusions: Record<string, Record<string, string>> = JSON.parse(
  readFileSync(new URL('./near-valid-exclusions.json', import.meta.url), 'utf8'),
);
const RUNS = Number(process.env.MCPSPEC_PROPERTY_RUNS ?? 25);

for (const [key, file] of Object.entries(VENDORED_SCHEMAS)) {
  describe(`schema ${key}`, () => {
    const doc = loadSchema(key);
    const check = independentValidator(join('fixtures', 'schemas', file));
    const excluded = exclusions[key] ?? {};

    it('lists every exclusion under a real definition', () => {
      for (const def of Object.keys(excluded)) expect(doc.definitions()).toContain(def);
    });

    for (const def of doc.definitions()) {
      it(`${def}: valid values pass ajv; near-valid values fail it as labelled`, () => {
        const pointer = doc.pointerOf(def);
        const validate = check(pointer);
        const arbs = definitionArbitraries(doc, def, { specVersion: key });
        fc.assert(
          fc.property(arbs.valid, (v) => {
            expect(validate(v), JSON.stringify(validate.errors)).toBe(true);
          }),
          { numRuns: RUNS, seed: 42 },
        );
        if (excluded[def]) {
          expect(() => fc.sample(arbs.nearValid, 1)).toThrow(NotMutableError);
          return;
        }
        fc.assert(
          fc.property(arbs.nearValid, ({ value, label }) => {
            expect(validate(value)).toBe(false);
            const errors = validate.errors ?? [];
            const hit = errors.some((e) => e.instancePath === label.path && e.keyword === label.keyword);
            expect(hit, `label ${JSON.stringify(label)} not among ${JSON.stringify(errors.map((e) => [e.instancePath, e.keyword]))}`).toBe(true);
          }),
          { numRuns: RUNS, seed: 43 },
        );
      });
    }
  });
}
