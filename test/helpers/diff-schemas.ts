/** Two tiny schemas that differ in known ways, for the schema differential's tests. */
export const DIFF_A = {
  $defs: {
    // A requires x; B does not.
    Req: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'string' } }, required: ['x'] },
    Max: { type: 'integer' },
    En: { enum: ['a', 'b', 'c'] },
    Same: { type: 'object', properties: { z: { type: 'boolean' }, list: { type: 'array', items: { type: 'string' } } } },
    // No value satisfies it: no generator can be built.
    Never: false,
  },
};

export const DIFF_B = {
  $defs: {
    Req: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'string' } } },
    Max: { type: 'integer', maximum: 10 },
    En: { enum: ['a', 'b'] },
    Same: { type: 'object', properties: { z: { type: 'boolean' }, list: { type: 'array', items: { type: 'string' } } } },
    Never: false,
    Loose: { type: 'object' },
  },
};
