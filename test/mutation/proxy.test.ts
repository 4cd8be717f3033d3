// The mutating proxy, both transports, in front of the reference server: transparent with the
// mutation that changes nothing (byte for byte over stdio), and changing exactly what its mutation
// names otherwise, with each application logged for the score.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRY, REPO_ROOT, discoverRequest, modernMeta, startHttpTarget } from '../helpers/targets.js';

const MCPSPEC = join(REPO_ROOT, 'dist', 'cli', 'mcpspec.js');
const dir = mkdtempSync(join(tmpdir(), 'mcpspec-proxy-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sends lines through `mcpspec mutate <id> --stdio -- reference`, returns what came back (until `count` lines or 10 s). */
async function throughStdio(id: string, lines: string[], count: number, log?: string): Promise<{ out: string[]; code: number | null }> {
  const p = spawn(process.execPath, [MCPSPEC, 'mutate', id, ...(log ? ['--applied-log', log] : []), '--stdio', '--', process.execPath, ENTRY.reference()], { stdio: ['pipe', 'pipe', 'ignore'] });
  const out: string[] = [];
  let buf = '';
  const done = new Promise<void>((resolve) => {
    const t = setTimeout(resolve, 10_000);
    p.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      out.push(...parts);
      if (out.length >= count) {
        clearTimeout(t);
        resolve();
      }
    });
  });
  for (const l of lines) p.stdin.write(`${l}\n`);
  await done;
  p.stdin.end();
  const code = await new Promise<number | null>((resolve) => p.once('exit', (c) => resolve(c)));
  return { out, code };
}

const toolsList = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: modernMeta() } });

describe('mcpspec mutate --stdio', () => {
  it('with identity, passes every line back byte for byte and exits with its server when stdin ends', async () => {
    const direct = await new Promise<string[]>((resolve) => {
      const p = spawn(process.execPath, [ENTRY.reference()], { stdio: ['pipe', 'pipe', 'ignore'] });
      let text = '';
      p.stdout.on('data', (c: Buffer) => (text += c.toString()));
      p.once('exit', () => resolve(text.split('\n').filter(Boolean)));
      p.stdin.end(`${JSON.stringify(discoverRequest(1))}\n${toolsList(2)}\n`);
    });
    const proxied = await throughStdio('identity', [JSON.stringify(discoverRequest(1)), toolsList(2)], 2);
    expect(proxied.out).toEqual(direct);
    expect(proxied.code).toBe(0);
  });

  it('applies its mutation to the answers it names only, and logs each application', async () => {
    const log = join(dir, 'stdio.ndjson');
    const { out } = await throughStdio('jsonrpc.answer-wrong-id', [JSON.stringify(discoverRequest(1)), toolsList(2)], 2, log);
    const [discover, tools] = out.map((l) => JSON.parse(l));
    expect(discover.id).toBe(1);
    expect(tools.id).toBe(2 + 7919);
    expect(tools.result.tools.length).toBeGreaterThan(0);
    const applied = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(applied).toHaveLength(1);
    expect(applied[0]).toMatchObject({ mutation: 'jsonrpc.answer-wrong-id', where: 'toClient', detail: 'answer to tools/list' });
  });

  it('drops an answer to make silence (and logs nothing for a mutation that never applies)', async () => {
    const log = join(dir, 'silent.ndjson');
    const { out } = await throughStdio('jsonrpc.silent-tools-list', [toolsList(1), JSON.stringify(discoverRequest(2))], 1, log);
    expect(out.map((l) => JSON.parse(l).id)).toEqual([2]);
    const none = join(dir, 'none.ndjson');
    await throughStdio('jsonrpc.parse-error-code', [toolsList(1)], 1, none);
    expect(existsSync(none)).toBe(false);
  });

  it('refuses a bad call in one line with exit 2', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const p = spawn(process.execPath, [MCPSPEC, 'mutate', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        p.stderr.on('data', (c: Buffer) => (err += c.toString()));
        p.once('exit', (code) => resolve({ code, err }));
      });
    const unknown = await run(['no.such-mutation', '--stdio', '--', 'true']);
    expect(unknown.code).toBe(2);
    expect(unknown.err.trim().split('\n')).toHaveLength(1);
    expect((await run(['jsonrpc.version-1'])).code).toBe(2);
  });
});

describe('mcpspec mutate --url', () => {
  it('proxies JSON answers, mutating only what it names, and stops on SIGTERM', async () => {
    const server = await startHttpTarget('reference');
    const log = join(dir, 'http.ndjson');
    const p = spawn(process.execPath, [MCPSPEC, 'mutate', 'jsonrpc.version-1', '--applied-log', log, '--url', server.url], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const url = await new Promise<string>((resolve) => {
        let text = '';
        p.stdout.on('data', (c: Buffer) => {
          const m = /listening (\S+)/.exec((text += c.toString()));
          if (m) resolve(m[1]);
        });
      });
      expect(new URL(url).pathname).toBe(new URL(server.url).pathname);
      const post = async (body: Record<string, unknown>) => {
        const params = body.params as { _meta: Record<string, string> };
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': params._meta['io.modelcontextprotocol/protocolVersion'], 'mcp-method': String(body.method) },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const answer = await post(JSON.parse(toolsList(7)));
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ jsonrpc: '1.0', id: 7 });
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1);
      p.kill('SIGTERM');
      expect(await new Promise((resolve) => p.once('exit', (c) => resolve(c)))).toBe(0);
    } finally {
      p.kill('SIGKILL');
      await server.stop();
    }
  });
});
