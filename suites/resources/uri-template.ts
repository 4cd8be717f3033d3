// RFC 6570 URI templates, as far as resource templates need them: the variables a template names,
// and its expansion with one string value per variable (levels 1 to 4; a string value, so an explode
// modifier changes nothing). A pure module: the resources scenario expands a listed template with it.

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  /** What a named variable with an empty value becomes after its name. */
  ifEmpty: string;
  allowReserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

interface VarSpec {
  name: string;
  /** The prefix modifier `:N`, if any. */
  maxLength?: number;
}

interface Expression {
  op: Operator;
  vars: VarSpec[];
}

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/** The template as literals and expressions; undefined when it is not an RFC 6570 template. */
function parse(template: string): (string | Expression)[] | undefined {
  const parts: (string | Expression)[] = [];
  let rest = template;
  while (rest.length) {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open < 0) {
      if (close >= 0) return undefined;
      parts.push(rest);
      break;
    }
    if (close >= 0 && close < open) return undefined;
    if (open > 0) parts.push(rest.slice(0, open));
    const end = rest.indexOf('}', open);
    if (end < 0) return undefined;
    const body = rest.slice(open + 1, end);
    const opChar = body[0] !== undefined && body[0] in OPERATORS && body[0] !== '' ? body[0] : '';
    const op = OPERATORS[opChar];
    const list = opChar ? body.slice(1) : body;
    const vars: VarSpec[] = [];
    for (const spec of list.split(',')) {
      const m = /^([^:*]+)(?::([1-9][0-9]{0,3})|(\*))?$/.exec(spec);
      if (!m || !VARNAME.test(m[1])) return undefined;
      vars.push(m[2] ? { name: m[1], maxLength: Number(m[2]) } : { name: m[1] });
    }
    parts.push({ op, vars });
    rest = rest.slice(end + 1);
  }
  return parts;
}

/** The variables a template names, each once, in order; undefined when it is not an RFC 6570 template. */
export function templateVariables(template: string): string[] | undefined {
  const parts = parse(template);
  if (!parts) return undefined;
  const names = parts.flatMap((p) => (typeof p === 'string' ? [] : p.vars.map((v) => v.name)));
  return [...new Set(names)];
}

function encode(value: string, allowReserved: boolean): string {
  if (allowReserved) return encodeURI(value);
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The template expanded with one string per variable (RFC 6570 section 3.2); undefined when it is not
 * a template, or a variable has no value (mcpspec always gives each one a value).
 */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string | undefined {
  const parts = parse(template);
  if (!parts) return undefined;
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const { op } = part;
    const items: string[] = [];
    for (const v of part.vars) {
      const raw = values[v.name];
      if (raw === undefined) return undefined;
      const value = encode(v.maxLength === undefined ? raw : raw.slice(0, v.maxLength), op.allowReserved);
      items.push(op.named ? (value === '' ? `${v.name}${op.ifEmpty}` : `${v.name}=${value}`) : value);
    }
    out += op.first + items.join(op.sep);
  }
  return out;
}
