// The `_meta` key grammar (MT-10, the same text in every version since 2025-06-18) and extension
// identifiers, which follow it with a mandatory prefix (MT-11, EX-02).

const LABEL = '[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
const NAME = '(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?';
const PREFIX = `${LABEL}(?:\\.${LABEL})*/`;

const KEY = new RegExp(`^(?:${PREFIX})?${NAME}$`);
const EXTENSION_ID = new RegExp(`^${PREFIX}${NAME}$`);

/** The keys OpenTelemetry trace context uses: valid names without a prefix (MT-09). */
const TRACE_KEYS = new Set(['traceparent', 'tracestate', 'baggage']);

export function isValidMetaKey(key: string): boolean {
  return TRACE_KEYS.has(key) || KEY.test(key);
}

export function isValidExtensionId(id: string): boolean {
  return EXTENSION_ID.test(id);
}

/** Why a key breaks the grammar, in a few words (for evidence). */
export function metaKeyProblem(key: string): string | undefined {
  if (isValidMetaKey(key)) return undefined;
  const slash = key.indexOf('/');
  if (slash >= 0) {
    const labels = key.slice(0, slash).split('.');
    const bad = labels.find((l) => !new RegExp(`^${LABEL}$`).test(l));
    if (bad !== undefined) return `prefix label ${JSON.stringify(bad)} must start with a letter, end with a letter or digit, and hold only letters, digits and hyphens`;
  }
  return `name ${JSON.stringify(key.slice(slash + 1))} must start and end with a letter or digit, with only letters, digits, "-", "_" and "." between`;
}

/** Subtrees whose keys are data, not MCP structure: a `_meta` there is nobody's metadata. */
const FREE_FORM = new Set(['inputSchema', 'outputSchema', 'requestedSchema', 'structuredContent', 'arguments', 'data', 'experimental']);

export interface MetaKeyFinding {
  /** JSON Pointer of the offending key. */
  pointer: string;
  key: string;
  problem: string;
}

export const escapePointer = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function extensionFindings(extensions: unknown, at: string, out: MetaKeyFinding[]): void {
  if (!isPlain(extensions)) return;
  for (const id of Object.keys(extensions)) {
    if (!isValidExtensionId(id)) out.push({ pointer: `${at}/${escapePointer(id)}`, key: id, problem: id.includes('/') ? metaKeyProblem(id) ?? 'not a valid extension identifier' : 'an extension identifier needs a vendor prefix (e.g. "com.example/")' });
  }
}

/**
 * Calls `visit` with every `_meta` object of a JSON-RPC message (and its JSON Pointer), and `onExtensions`
 * with every extension map. Free-form data (schemas, arguments, structured content, error data) is not looked at.
 */
export function walkMeta(message: unknown, visit: (meta: Record<string, unknown>, pointer: string) => void, onExtensions?: (extensions: unknown, pointer: string) => void): void {
  const walk = (node: unknown, at: string, parentKey: string | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => walk(v, `${at}/${i}`, undefined));
      return;
    }
    if (!isPlain(node)) return;
    for (const [k, v] of Object.entries(node)) {
      const here = `${at}/${escapePointer(k)}`;
      if (k === '_meta' && isPlain(v)) {
        visit(v, here);
        const caps = v['io.modelcontextprotocol/clientCapabilities'];
        if (isPlain(caps)) onExtensions?.(caps.extensions, `${here}/${escapePointer('io.modelcontextprotocol/clientCapabilities')}/extensions`);
        continue;
      }
      if (k === 'extensions' && parentKey === 'capabilities') {
        onExtensions?.(v, here);
        continue;
      }
      if (FREE_FORM.has(k)) continue;
      // An elicitation result's content is the user's answers, not MCP structure.
      if (k === 'content' && isPlain(v)) continue;
      walk(v, here, k);
    }
  };
  walk(message, '', undefined);
}

/** Every `_meta` key and extension identifier in a JSON-RPC message that breaks the grammar. */
export function metaKeyFindings(message: unknown): MetaKeyFinding[] {
  const out: MetaKeyFinding[] = [];
  walkMeta(
    message,
    (meta, at) => {
      for (const key of Object.keys(meta)) {
        const problem = metaKeyProblem(key);
        if (problem) out.push({ pointer: `${at}/${escapePointer(key)}`, key, problem });
      }
    },
    (extensions, at) => extensionFindings(extensions, at, out),
  );
  return out;
}
