// A tiny server on the real v2 TypeScript SDK (dual-era over stdio), for the runner's real-target checks.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'runner-v2-check', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('greet', { description: 'Say hi', inputSchema: z.object({ who: z.string() }) }, async ({ who }) => ({
    content: [{ type: 'text', text: `hi ${who}` }],
  }));
  return server;
});
