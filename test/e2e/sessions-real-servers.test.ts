// Quick checks against real servers: @modelcontextprotocol/server-everything (v1 SDK, legacy era)
// and a tiny server on the v2 SDK (@modelcontextprotocol/server, dual-era).

import { describe, expect, it } from 'vitest';
import { Recorder } from '../../runner/recorder.js';
import { probeEra } from '../../runner/detect-era.js';
import { openSession } from '../../runner/session.js';
import { StdioTransport } from '../../runner/stdio-transport.js';
import { fileURLToPath } from 'node:url';
import { EVERYTHING } from '../runner/helpers.js';

const V2 = fileURLToPath(new URL('../runner/v2-stdio-server.mjs', import.meta.url));
const v2 = (rec: Recorder) => new StdioTransport({ command: process.execPath, args: [V2] }, rec);

const everything = (rec: Recorder) => new StdioTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'] }, rec);

describe('server-everything over stdio', () => {
  it('opens a legacy session and lists tools', async () => {
    const s = await openSession(everything, { specVersion: '2025-11-25', timeoutMs: 15_000 });
    try {
      expect(s.era).toBe('legacy');
      expect(s.version).toBe('2025-11-25');
      expect(s.serverInfo?.name).toBeTruthy();
      const ex = await s.request('tools/list');
      const tools = (ex.response as { result: { tools: Array<{ name: string }> } }).result.tools;
      expect(tools.length).toBeGreaterThan(0);
      // stdout carried only JSON-RPC
      expect(s.recorder.incidents().filter((f) => f.type === 'noise')).toEqual([]);
    } finally {
      const info = await s.close();
      expect(info?.signal ?? null).toBeNull(); // it exits on stdin EOF
    }
  });

  it('is detected as legacy (server/discover before initialize is rejected)', async () => {
    const t = everything(new Recorder());
    try {
      await t.open();
      const d = await probeEra(t, { timeoutMs: 15_000 });
      expect(d.era).toBe('legacy');
      expect(d.reason).toMatch(/fell back to initialize/);
      expect(d.probe?.timedOut).toBe(false); // it answers at once, it does not ignore the probe
    } finally {
      await t.close();
    }
  });
});

describe('v2 SDK server over stdio', () => {
  it('is detected as modern and serves tools/list with per-request _meta', async () => {
    const s = await openSession(v2, { specVersion: 'auto', timeoutMs: 15_000 });
    try {
      expect(s.era).toBe('modern');
      expect(s.detection?.reason).toMatch(/server\/discover answered/);
      expect(s.serverInfo?.name).toBe('runner-v2-check');
      const ex = await s.request('tools/list');
      const result = (ex.response as { result: { tools: unknown[]; resultType: string } }).result;
      expect(result.tools.length).toBeGreaterThan(0);
      expect(result.resultType).toBe('complete');
    } finally {
      await s.close();
    }
  });

  it('still opens a legacy session when asked for 2025-11-25', async () => {
    const s = await openSession(v2, { specVersion: '2025-11-25', timeoutMs: 15_000 });
    try {
      expect(s.version).toBe('2025-11-25');
      expect((await s.request('tools/list')).response).toMatchObject({ result: { tools: [{ name: 'greet' }] } });
    } finally {
      await s.close();
    }
  });
});
