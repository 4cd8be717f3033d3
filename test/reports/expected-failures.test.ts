// The official suite's expected-failures file as a baseline: parsing, the mapping onto mcpspec's
// checks (every mcpspec id it names exists, for the right role), and the comparison of entries that
// map to several checks.
import { describe, expect, it } from 'vitest';
import { BaselineError, baselineExitCode, compareBaseline, type BaselineEntry } from '../../reports/baseline.js';
import { parseExpectedFailures, translateExpectedFailures } from '../../reports/expected-failures.js';
import { CROSS_CUTTING, OFFICIAL_SCENARIOS, type OfficialRole } from '../../reports/official-suite-map.js';
import { summarize, verdictDigest, type Report } from '../../reports/report.js';
import type { CheckResult } from '../../results/run.js';
import type { Status } from '../../results/verdict.js';
import { CHECKS } from '../../suites/catalogue.js';

function check(id: string, status: Status): CheckResult {
  return { id, status, scenario: 's', message: `${status} message`, evidence: [], area: id.split('.')[0], title: id, kind: 'scenario' } as unknown as CheckResult;
}

function report(checks: CheckResult[], strict = false): Report {
  const era = { era: 'modern', version: '2026-07-28', judgedBy: '2026-07-28', detected: true, reason: '' } as Report['era'];
  return {
    reportVersion: 2,
    tool: { name: 'mcpspec', version: '0.1.0' },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    role: 'server',
    target: { role: 'server', transport: 'stdio', command: 'node', args: ['x.js'] },
    era,
    peer: { capabilities: {} },
    options: { specVersion: 'auto', strict, allowDestructive: false, allowOpenWorld: false, timeoutMs: 1, deadlineMs: 1, seed: 1, runs: 1 },
    summary: summarize(checks, [], strict),
    digest: verdictDigest(checks, era.judgedBy),
    scenarios: [],
    checks,
    findings: [],
  } as Report;
}

/** The error a text raises, as the user sees it. */
function refusal(text: string): string {
  try {
    parseExpectedFailures(text, 'f.yml');
  } catch (e) {
    expect(e).toBeInstanceOf(BaselineError);
    const message = (e as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    return message;
  }
  throw new Error(`accepted: ${text}`);
}

describe('parsing the official expected-failures file', () => {
  it('reads both sections, whole-scenario and scenario:check entries, comments, and names that YAML reads as numbers', () => {
    const text = [
      '# conformance-baseline.yml',
      'server:',
      '  - tools-call-with-progress   # a whole scenario',
      '  - server-stateless:sep-2575-server-implements-discover',
      '  - "auth/odd:quoted"',
      '  - 42',
      '  - tools-call-with-progress   # listed twice: once is enough',
      'client:',
      '  - sse-retry',
      '  - auth/metadata-default:pkce-s256-method-used',
    ].join('\n');
    expect(parseExpectedFailures(text)).toEqual({
      server: [{ scenario: 'tools-call-with-progress' }, { scenario: 'server-stateless', check: 'sep-2575-server-implements-discover' }, { scenario: 'auth/odd', check: 'quoted' }, { scenario: '42' }],
      client: [{ scenario: 'sse-retry' }, { scenario: 'auth/metadata-default', check: 'pkce-s256-method-used' }],
      ignoredKeys: [],
    });
  });

  it('an empty file, or an empty section, expects nothing; keys other than server and client are kept aside, not refused', () => {
    expect(parseExpectedFailures('')).toEqual({ server: [], client: [], ignoredKeys: [] });
    expect(parseExpectedFailures('# nothing yet\n')).toEqual({ server: [], client: [], ignoredKeys: [] });
    expect(parseExpectedFailures('server:\nclient: []\nauthorization:\n  - x\n')).toEqual({ server: [], client: [], ignoredKeys: ['authorization'] });
  });

  it('refuses in one line what the official suite refuses: not YAML, not a mapping, a section that is no list, empty or mapping entries, half an entry, a scenario listed whole and per check', () => {
    expect(refusal('server: [unclosed')).toMatch(/^f\.yml is not YAML: /);
    expect(refusal('server:\n  - a\n server: b')).toMatch(/is not YAML/);
    expect(refusal('- tools-list')).toBe('f.yml must be a mapping with server and/or client lists');
    expect(refusal('just words')).toMatch(/must be a mapping/);
    expect(refusal('server: tools-list')).toBe("f.yml: 'server' must be a list of scenario names");
    expect(refusal('server:\n  -\n')).toMatch(/'server' entry 1 .* it is empty$/);
    expect(refusal('client:\n  - sse-retry\n  - server-stateless: sep-2575-server-implements-discover')).toBe(
      "f.yml: 'client' entry 2 ({\"server-stateless\":\"sep-2575-server-implements-discover\"}) is not '<scenario>' or '<scenario>:<check-id>': write 'server-stateless:sep-2575-server-implements-discover' with no space after the colon",
    );
    expect(refusal('server:\n  - [a, b]')).toMatch(/no space after the colon/);
    expect(refusal('server:\n  - ":check"')).toMatch(/both sides of the colon are needed/);
    expect(refusal('server:\n  - "tools-list:"')).toMatch(/both sides of the colon are needed/);
    expect(refusal('server:\n  - tools-list\n  - tools-list:tools-name-format')).toBe("f.yml: 'server': 'tools-list' is listed whole, so 'tools-list:tools-name-format' adds nothing: keep one of them");
  });
});

describe('mapping entries onto mcpspec checks', () => {
  const translate = (text: string, role: OfficialRole = 'server') => translateExpectedFailures(parseExpectedFailures(text), role);

  it('a whole scenario expects every check that judges one of its rules; a scenario:check entry only that check', () => {
    const t = translate('server:\n  - sep-2164-resource-not-found\n  - tools-list:tools-name-format\n  - server-stateless');
    expect(t.baseline.map((e) => [e.id, e.checks])).toEqual([
      ['sep-2164-resource-not-found', ['resources.unknown-modern', 'resources.unknown-data-uri']],
      ['tools-list:tools-name-format', ['tools.names']],
      ['server-stateless', expect.arrayContaining(['meta.required-keys', 'discover.result', 'http.header-mismatch', 'subscriptions.ack', 'jsonrpc.id-echo'])],
    ]);
    expect(t.mapped[0]).toEqual({ entry: 'sep-2164-resource-not-found', checks: ['resources.unknown-modern', 'resources.unknown-data-uri'], fit: 'covered', uncovered: [] });
    // server-stateless has rules with no counterpart: the entry maps, and says which of its rules stay unjudged.
    expect(t.mapped[2].uncovered).toContain('sep-2575-http-server-method-not-found-404-initialize');
    expect(t.unmapped).toEqual([]);
  });

  it('a whole scenario leaves the schema oracles out; named on its own, wire-schema-valid maps to them', () => {
    const t = translate('server:\n  - ping\n  - tools-call-with-progress:wire-schema-valid\nclient:\n  - request-metadata:wire-schema-valid');
    expect(t.baseline.map((e) => e.checks)).toEqual([['lifecycle.ping'], ['wire.schema', 'asks.schema', 'tasks.schema']]);
    expect(translate('client:\n  - request-metadata:wire-schema-valid', 'client').baseline[0].checks).toEqual(['client.schema']);
  });

  it('reads only the section of the role under test', () => {
    const text = 'server:\n  - ping\nclient:\n  - http-standard-headers';
    expect(translate(text, 'server').baseline.map((e) => e.id)).toEqual(['ping']);
    expect(translate(text, 'client').baseline).toEqual([
      { id: 'http-standard-headers', reason: expect.stringContaining('client.http-method-header'), checks: ['client.http-method-header', 'client.http-name-header'] },
    ]);
  });

  it('lists every entry that maps to nothing, with the reason, and never drops one silently', () => {
    const t = translate(
      [
        'server:',
        '  - resources-templates-read',
        '  - tasks-wire-fields:tasks-no-related-task-meta-on-inlined-result',
        '  - server-sse-polling:server-sse-polling-session',
        '  - ping:no-such-check',
        '  - no-such-scenario',
        '  - sse-retry',
        '  - sep-2640-skills-manifest:sep-2640-meta-prefix',
        'extra: true',
      ].join('\n'),
    );
    expect(t.baseline).toEqual([]);
    expect(t.unmapped).toEqual([
      { entry: 'extra', why: 'a top-level key: only server and client are read' },
      { entry: 'resources-templates-read', why: 'no mcpspec check judges any rule of this scenario' },
      { entry: 'tasks-wire-fields:tasks-no-related-task-meta-on-inlined-result', why: 'no mcpspec check judges this rule' },
      { entry: 'server-sse-polling:server-sse-polling-session', why: 'an official harness check (set-up or information), not a rule' },
      { entry: 'ping:no-such-check', why: 'not a check of ping in the official suite 0.2.0-alpha.12' },
      { entry: 'no-such-scenario', why: 'not a server scenario of the official suite 0.2.0-alpha.12' },
      { entry: 'sse-retry', why: 'not a server scenario of the official suite 0.2.0-alpha.12; it is a client scenario: list it under client' },
      { entry: 'sep-2640-skills-manifest:sep-2640-meta-prefix', why: 'no mcpspec check judges this rule' },
    ]);
  });

  it('a scenario judged as a whole beyond its checks maps that too (a discovery path it forces)', () => {
    const t = translate('client:\n  - auth/metadata-var1', 'client');
    expect(t.baseline[0].checks).toEqual(expect.arrayContaining(['auth.client-pkce', 'auth.client-resource', 'auth.client-prm-well-known', 'auth.client-as-oidc', 'auth.client-bearer']));
    expect(t.mapped[0].fit).toBe('partial');
  });
});

describe('the vendored mapping against the catalogue', () => {
  const roleOf = new Map(CHECKS.map((c) => [c.id, c.role]));

  it('every mcpspec check it names exists, and judges the role the official scenario tests', () => {
    const wrong: string[] = [];
    for (const role of ['server', 'client'] as const) {
      const counterparts = [...Object.entries(OFFICIAL_SCENARIOS[role]).flatMap(([name, s]) => [...Object.entries(s.checks).map(([id, c]) => [`${name}:${id}`, c] as const), ...(s.whole ? [[name, s.whole] as const] : [])]), ...Object.entries(CROSS_CUTTING[role])];
      for (const [where, c] of counterparts) {
        for (const id of c.checks) if (roleOf.get(id) !== role) wrong.push(`${role} ${where} -> ${id} (${roleOf.get(id) ?? 'no such check'})`);
        // covered and partial name checks; none and harness name none
        if ((c.fit === 'covered' || c.fit === 'partial') !== c.checks.length > 0) wrong.push(`${role} ${where}: ${c.fit} with ${c.checks.length} checks`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('holds the official scenario lists (65 server, 48 client in 0.2.0-alpha.12), each with its checks', () => {
    expect(Object.keys(OFFICIAL_SCENARIOS.server)).toHaveLength(65);
    expect(Object.keys(OFFICIAL_SCENARIOS.client)).toHaveLength(48);
    for (const role of ['server', 'client'] as const) for (const [name, s] of Object.entries(OFFICIAL_SCENARIOS[role])) expect(Object.keys(s.checks).length, name).toBeGreaterThan(0);
    // A sample, checked by hand against the coverage map.
    expect(OFFICIAL_SCENARIOS.server['server-stateless'].checks['sep-2575-server-sends-subscription-ack'].checks).toEqual(['subscriptions.ack']);
    expect(OFFICIAL_SCENARIOS.server['tasks-wire-fields'].checks['tasks-no-early-ttl-expiry'].checks).toEqual(['tasks.modern-kept-for-ttl']);
    expect(OFFICIAL_SCENARIOS.client['auth/token-endpoint-auth-post'].checks['token-endpoint-auth-method'].fit).toBe('none');
    expect(OFFICIAL_SCENARIOS.client['auth/token-endpoint-auth-basic'].checks['token-endpoint-auth-method'].checks).toEqual(['auth.client-token-auth']);
    expect(OFFICIAL_SCENARIOS.client['sep-2322-client-request-state'].checks['sep-2322-client-no-state-omitted'].checks).toEqual(['client.mrtr-no-invented-state']);
  });
});

describe('comparing a run with entries that map to several checks', () => {
  const entry = (id: string, checks: string[]): BaselineEntry => ({ id, reason: '', checks });

  it('any failing check is expected; the entry is stale only when none fails, one passed, none was left untestable', () => {
    const r = report([check('a.one', 'fail'), check('a.two', 'pass'), check('b.one', 'pass'), check('b.two', 'skip'), check('c.one', 'pass'), check('c.two', 'untestable'), check('d.one', 'skip'), check('e.one', 'warn'), check('x.new', 'fail')]);
    const c = compareBaseline(r, [entry('A', ['a.one', 'a.two']), entry('B', ['b.one', 'b.two', 'b.absent']), entry('C', ['c.one', 'c.two']), entry('D', ['d.one', 'd.absent']), entry('E', ['e.one'])]);
    expect(c.expected.map((x) => x.id)).toEqual(['a.one']);
    expect(c.unexpected.map((x) => x.id)).toEqual(['x.new']);
    expect(c.stale.map((e) => e.id)).toEqual(['B', 'E']);
    expect(c.notRun.map((e) => e.id)).toEqual(['C', 'D']);
    // Under --strict a warning is a failure: E is then expected, not stale.
    const strict = compareBaseline(report(r.checks, true), [entry('E', ['e.one'])]);
    expect([strict.expected.map((x) => x.id), strict.stale]).toEqual([['e.one'], []]);
  });

  it('stale entries fail the run only with --strict-baseline', () => {
    const c = compareBaseline(report([check('a.one', 'fail'), check('b.one', 'pass')]), [entry('A', ['a.one']), entry('B', ['b.one'])]);
    expect(c.stale.map((e) => e.id)).toEqual(['B']);
    expect(baselineExitCode(c)).toBe(0);
    expect(baselineExitCode(c, true)).toBe(1);
    const clean = compareBaseline(report([check('a.one', 'fail')]), [entry('A', ['a.one'])]);
    expect(baselineExitCode(clean, true)).toBe(0);
  });
});
