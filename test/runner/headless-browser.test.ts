import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSandbox, withHeadlessBrowser } from '../../runner/target-env.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handle);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as { port: number }).port}`;
}

describe('the headless browser a client under test gets in the authorization scenarios', () => {
  it('xdg-open and BROWSER on its PATH load the URL and follow its redirect to the client\'s callback', async () => {
    const hits: string[] = [];
    const callback = await serve((req, res) => {
      hits.push(req.url ?? '');
      res.end('ok');
    });
    const authorize = await serve((_req, res) => res.writeHead(302, { Location: `${callback}/callback?code=abc&state=s` }).end());
    const sandbox = makeSandbox();
    try {
      withHeadlessBrowser(sandbox);
      expect(sandbox.env.PATH.split(':')[0]).toBe(join(sandbox.home, '.mcpspec-browser'));
      expect(sandbox.env.BROWSER).toBe(join(sandbox.home, '.mcpspec-browser', 'x-www-browser'));
      // As a client's opener would run it: by name, from the PATH it was given.
      // (Not execFileSync: the servers above answer on this process's event loop.)
      await promisify(execFile)('sh', ['-c', 'xdg-open "$0"', `${authorize}/authorize?x=1`], { env: sandbox.env, timeout: 15_000 });
      expect(hits).toEqual(['/callback?code=abc&state=s']);
    } finally {
      sandbox.dispose();
    }
  });

  it('a callback that is not listening yet is tried again for a few seconds: loaded once its server is up', async () => {
    // A port nothing listens on for the first second (as a client that starts its callback server only after opening the browser).
    const hits: string[] = [];
    const late = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('ok');
    });
    await new Promise<void>((r) => late.listen(0, '127.0.0.1', r));
    const port = (late.address() as { port: number }).port;
    await new Promise((r) => late.close(r));
    const authorize = await serve((_req, res) => res.writeHead(302, { Location: `http://127.0.0.1:${port}/callback?code=late` }).end());
    const sandbox = makeSandbox();
    try {
      withHeadlessBrowser(sandbox);
      const opened = promisify(execFile)(sandbox.env.BROWSER, [`${authorize}/authorize`], { env: sandbox.env, timeout: 15_000 });
      await new Promise((r) => setTimeout(r, 1_000));
      servers.push(late);
      await new Promise<void>((r) => late.listen(port, '127.0.0.1', r));
      await opened;
      expect(hits).toEqual(['/callback?code=late']);
    } finally {
      sandbox.dispose();
    }
  });

  it('never visits another machine', async () => {
    const sandbox = makeSandbox();
    try {
      withHeadlessBrowser(sandbox);
      const run = promisify(execFile)(sandbox.env.BROWSER, ['https://example.com/authorize'], { env: sandbox.env, timeout: 15_000 });
      await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('not visiting example.com') });
    } finally {
      sandbox.dispose();
    }
  });

  it('with a report URL it says what became of the visit: the callback\'s status, or why it could not be loaded', async () => {
    const reports: unknown[] = [];
    const closed = await serve(() => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    const origin = await serve((req, res) => {
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          reports.push(JSON.parse(body));
          res.writeHead(204).end();
        });
        return;
      }
      // A callback on a port nothing listens on (the client's callback server never comes up: given up after the grace).
      res.writeHead(302, { Location: `${closed}/callback?code=b` }).end();
    });
    const sandbox = makeSandbox();
    try {
      withHeadlessBrowser(sandbox, `${origin}/.mcpspec/browser`);
      const run = promisify(execFile);
      const callback = await serve((_req, res) => res.writeHead(400).end('refused'));
      const ok = await serve((_req, res) => res.writeHead(302, { Location: `${callback}/cb?code=a` }).end());
      await run(sandbox.env.BROWSER, [`${ok}/authorize`], { env: sandbox.env, timeout: 15_000 });
      await expect(run(sandbox.env.BROWSER, [`${origin}/gone`], { env: sandbox.env, timeout: 15_000 })).rejects.toMatchObject({ code: 1 });
      expect(reports).toEqual([
        { visited: [`${ok}/authorize`, `${callback}/cb?code=a`], status: 400 },
        { visited: [`${origin}/gone`, `${closed}/callback?code=b`], error: 'ECONNREFUSED' },
      ]);
    } finally {
      sandbox.dispose();
    }
  });
});
