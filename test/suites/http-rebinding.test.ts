import { describe, expect, it } from 'vitest';
import type { SpecVersion } from '../../protocol/versions.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { PlainHttpResponse } from '../../suites/ports/plain-http.js';
import type { RebindingObs } from '../../suites/transports/http/rebinding-scenario.js';

const judge = (id: string, obs: RebindingObs, version: SpecVersion = '2026-07-28') =>
  CHECKS.find((c) => c.id === id)!.judge(obs, { era: version === '2026-07-28' ? 'modern' : 'legacy', version, transport: 'http', capabilities: {} });

const answer = (status?: number): PlainHttpResponse => ({ url: 'http://127.0.0.1:4000/mcp', method: 'POST', status, headers: {}, body: '', timedOut: status === undefined, elapsedMs: 2, seq: [1, 2] });
const good = (): RebindingObs => ({ plain: answer(200), rebinding: answer(403), sameOrigin: answer(200), origin: 'http://127.0.0.1:4000' });

describe('DNS rebinding and same-origin requests', () => {
  it('a server that refuses the rebinding page and serves its own origin passes both', () => {
    expect(judge('http.origin-rebinding', good())).toMatchObject({ outcome: 'holds' });
    expect(judge('http.origin-same', good())).toMatchObject({ outcome: 'holds' });
  });

  it('http.origin-rebinding: served fails (an Origin matching Host is still foreign); another status fails; 2025-06-18 takes any 4xx', () => {
    expect(judge('http.origin-rebinding', { ...good(), rebinding: answer(200) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('was served (HTTP 200)') });
    expect(judge('http.origin-rebinding', { ...good(), rebinding: answer(421) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP 421, not 403') });
    expect(judge('http.origin-rebinding', { ...good(), rebinding: answer(421) }, '2025-06-18')).toMatchObject({ outcome: 'holds' });
    expect(judge('http.origin-rebinding', { ...good(), rebinding: answer(undefined) }).outcome).toBe('untestable');
  });

  it('http.origin-same: the server\'s own origin refused warns', () => {
    expect(judge('http.origin-same', { ...good(), sameOrigin: answer(403) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('Origin: http://127.0.0.1:4000) got HTTP 403') });
  });

  it('nothing is judged when the request without Origin is not served (authorization required, or no answer)', () => {
    for (const id of ['http.origin-rebinding', 'http.origin-same']) {
      expect(judge(id, { plain: answer(401), origin: 'http://127.0.0.1:4000' })).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('HTTP 401') });
      expect(judge(id, { plain: answer(undefined), origin: 'http://127.0.0.1:4000' }).outcome).toBe('untestable');
    }
  });
});
