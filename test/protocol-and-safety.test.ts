import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../protocol/duration.js';
import { Redactor, redactHeaders, secretValues } from '../runner/redact.js';
import { makeSandbox } from '../runner/target-env.js';

describe('durations', () => {
  it.each([
    ['500ms', 500], ['10s', 10_000], ['2m', 120_000], ['1h', 3_600_000], ['1.5s', 1500], ['750', 750], [' 3s ', 3000],
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));
  it.each(['', 'abc', '-1s', '0', '0s', '5 minutes', '1e3', 's'])('%j is not a duration', (text) => expect(parseDuration(text)).toBeUndefined());
});

describe('secrets stay out of reports', () => {
  it('drops credential headers and replaces secret values, also JSON-escaped', () => {
    expect(redactHeaders({ Authorization: 'Bearer x', 'X-Api-Key': 'k', Accept: 'a' })).toEqual({ Authorization: '<redacted>', 'X-Api-Key': '<redacted>', Accept: 'a' });
    const secrets = secretValues({ GITHUB_TOKEN: 'ghp_abcdefgh12345678', HOME: '/home/ci-user-12345678', RANDOM_ID: 'a8f3k2l9m4n7b6v5c1x0', SHORT: 'abc', PLAIN: 'hello world this is text' });
    expect(secrets.sort()).toEqual(['a8f3k2l9m4n7b6v5c1x0', 'ghp_abcdefgh12345678'].sort());
    const r = new Redactor([...secrets, 'pa"ss\\word1']);
    expect(r.text('token ghp_abcdefgh12345678 here')).toBe('token <redacted> here');
    expect(r.json({ env: { X: 'pa"ss\\word1' } })).toEqual({ env: { X: '<redacted>' } });
  });

  it('a stdio target gets PATH, a temporary HOME and working directory, and only what it is given', () => {
    process.env.MCPSPEC_UNIT_SECRET = 'never-passed-1234';
    const box = makeSandbox({ set: { GIVEN: '1' }, pass: ['MCPSPEC_UNIT_SECRET_ABSENT'] });
    try {
      expect(Object.keys(box.env).sort()).toEqual(['GIVEN', 'HOME', 'PATH', 'TMPDIR']);
      expect(statSync(box.home).isDirectory() && statSync(box.cwd).isDirectory()).toBe(true);
      expect(box.home).not.toBe(box.cwd);
    } finally {
      box.dispose();
      delete process.env.MCPSPEC_UNIT_SECRET;
    }
    expect(existsSync(box.home)).toBe(false);
  });
});
