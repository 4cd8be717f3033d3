// Valid tool arguments come from the tool's own inputSchema, with one courtesy: a number that names a
// time to spend (`duration`, `delayMs`, `timeout_seconds`, ...) is drawn from the bottom of its valid
// range, at most 1 (or its minimum, if that is higher), and is always given (left out, the tool's
// default applies, and defaults like `duration: 10` seconds are common). `duration: 700961` is
// valid, but it asks the server to work for days: the call can only be abandoned unjudged.
// A number that counts rounds of work (`steps`, `iterations`, `retries`, ...) is kept to at most 10 (or
// its minimum): `steps: 809298` with a tiny `duration` keeps a server's timer loop busy for minutes.
// Near-valid arguments are drawn from the gentle schema too, but only those that break the tool's real
// schema are kept: a break of a gentle-only bound is no break at all.

type Obj = Record<string, unknown>;

const TIME_WORDS = new Set([
  'duration', 'delay', 'sleep', 'wait', 'timeout', 'interval', 'period', 'ttl',
  'ms', 'millis', 'milliseconds', 'sec', 'secs', 'second', 'seconds', 'mins', 'minute', 'minutes', 'hour', 'hours',
]);

const WORK_WORDS = new Set(['steps', 'iterations', 'repeat', 'repeats', 'repetitions', 'loops', 'rounds', 'retries', 'attempts']);

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** camelCase, snake_case, kebab-case and digits split into lower-case words. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

export const namesATime = (name: string): boolean => nameWords(name).some((w) => TIME_WORDS.has(w));
export const countsWork = (name: string): boolean => nameWords(name).some((w) => WORK_WORDS.has(w));

function isNumeric(schema: Obj): boolean {
  const t = schema.type;
  return t === 'number' || t === 'integer' || (Array.isArray(t) && t.some((x) => x === 'number' || x === 'integer'));
}

function capped(schema: Obj, atMost: number): Obj {
  const floor = Math.max(
    typeof schema.minimum === 'number' ? schema.minimum : 0,
    typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : 0,
  );
  const cap = Math.max(floor, atMost);
  // A cap the schema cannot satisfy (exclusiveMinimum 1, integers only, ...) would leave no valid value.
  if (typeof schema.exclusiveMinimum === 'number' && cap <= schema.exclusiveMinimum) return schema;
  if (typeof schema.maximum === 'number' && schema.maximum <= cap) return schema;
  if (typeof schema.exclusiveMaximum === 'number' && schema.exclusiveMaximum <= cap) return schema;
  if (typeof schema.multipleOf === 'number' && Math.floor(cap / schema.multipleOf) * schema.multipleOf < floor) return schema;
  return { ...schema, maximum: cap };
}

/**
 * The schema valid tool arguments are drawn from: `schema` itself, except that numeric members
 * named like a time (at any depth of `properties` and `items`) are required and get a maximum of
 * max(1, minimum), and numeric members that count rounds of work get a maximum of max(10, minimum).
 * Returns the same object when nothing changes.
 */
export function gentleSchema<T>(schema: T): T {
  if (!isObj(schema)) return schema;
  let out: Obj = schema;
  const set = (key: string, value: unknown) => {
    if (value === out[key]) return;
    if (out === schema) out = { ...schema };
    out[key] = value;
  };
  if (isObj(schema.properties)) {
    const props: Obj = {};
    const timed: string[] = [];
    let changed = false;
    for (const [name, sub] of Object.entries(schema.properties)) {
      let next = gentleSchema(sub);
      if (isObj(next) && namesATime(name) && isNumeric(next)) {
        next = capped(next, 1);
        timed.push(name);
      } else if (isObj(next) && countsWork(name) && isNumeric(next)) {
        next = capped(next, 10);
      }
      props[name] = next;
      changed ||= next !== sub;
    }
    if (changed) set('properties', props);
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
    const missing = timed.filter((n) => !required.includes(n));
    if (missing.length) set('required', [...required, ...missing]);
  }
  if (isObj(schema.items)) set('items', gentleSchema(schema.items));
  return out as T;
}
