import { describe, expect, it } from 'vitest';
import { duplicateKeys } from '../../protocol/duplicate-keys.js';

describe('duplicateKeys: member names repeated within one object of a JSON text', () => {
  it('finds none in ordinary JSON, and none across different objects', () => {
    expect(duplicateKeys(JSON.stringify({ a: 1, b: { a: 2 }, c: [{ a: 1 }, { a: 2 }] }))).toEqual([]);
  });
  it('points at each repeat, nested in objects and arrays', () => {
    expect(duplicateKeys('{"result":{"inputRequests":{"ask":{"method":"roots/list"},"ask":{"method":"elicitation/create"}}}}')).toEqual(['/result/inputRequests/ask']);
    expect(duplicateKeys('{"a":[1,{"x":1,"x":2}],"a":0}')).toEqual(['/a/1/x', '/a']);
  });
  it('is not fooled by braces, commas and quotes inside strings', () => {
    expect(duplicateKeys('{"a":"{\\"a\\":1,\\"a\\":2}","b":"x,y"}')).toEqual([]);
    expect(duplicateKeys('{"a/b":1,"a/b":2}')).toEqual(['/a~1b']);
  });
  it('gives nothing for text that is no JSON', () => {
    expect(duplicateKeys('{"a":"unterminated')).toEqual([]);
  });
});
