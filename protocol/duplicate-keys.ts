// Member names an object of a JSON text carries twice. JSON.parse keeps the last one silently, so
// a message that names a key twice reads differently to different parsers; only the text shows it.

import { escapePointer } from './meta-keys.js';

type Frame = { kind: 'object'; path: string; keys: Set<string>; key?: string; expectKey: boolean } | { kind: 'array'; path: string; index: number };

/** JSON pointers of every member name repeated within its object ("/result/inputRequests/ask"); [] for text that is no JSON. */
export function duplicateKeys(text: string): string[] {
  const out: string[] = [];
  const stack: Frame[] = [];
  const here = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    return top.kind === 'object' ? `${top.path}/${escapePointer(top.key ?? '')}` : `${top.path}/${top.index}`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) return [];
      const top = stack[stack.length - 1];
      if (top?.kind === 'object' && top.expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          return [];
        }
        if (top.keys.has(key)) out.push(`${top.path}/${escapePointer(key)}`);
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = j;
    } else if (c === '{') {
      stack.push({ kind: 'object', path: here(), keys: new Set(), expectKey: true });
    } else if (c === '[') {
      stack.push({ kind: 'array', path: here(), index: 0 });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.expectKey = true;
      else if (top?.kind === 'array') top.index++;
    }
  }
  return out;
}
