// The floor of the benchmarks: a bare Hono app on @hono/node-server that answers the benchmark
// routes with the same JSON the mock gives (captured from the mock by run.ts and passed with
// --bodies FILE), and nothing else: no auth, state, validation or journal. A POST still reads and
// parses its JSON body. Started as its own process (compiled to plain JS by lib.ts, so no loader
// runs); prints "listening on <url>" like the mock.
//
//   node bare-hono.js [--port N] [--bodies FILE]

import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { readFileSync, realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// Type-only: erased when lib.ts transpiles this file on its own, so the floor loads nothing of ours.
import type { Bodies } from './scenarios.js';

const DEFAULT: Bodies = {
  getUser: { type: 'user', id: '5714dd359a3fd47136000001', user_id: 'ada-1', email: 'ada@example.com' },
  postUser: { type: 'user', id: '5714dd359a3fd47136000001', user_id: 'ada-1', email: 'ada@example.com' },
  counts: { type: 'count', company: { tag: [] }, pages: {} },
  conversation: { type: 'conversation', id: '5714dd359a3fd47136000503', conversation_parts: { type: 'conversation_part.list', conversation_parts: [], total_count: 0 } },
  companyUsers: { type: 'user.list', total_count: 0, users: [], pages: {} },
  rateLimited: { type: 'error.list', request_id: 'x', errors: [{ code: 'rate_limit_exceeded', message: 'Exceeded rate limit' }] },
};

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The floor's routes over the given answers (also loaded in process by adapter-inprocess.ts). */
export function bareApp(bodies: Bodies = DEFAULT): Hono {
  const app = new Hono();
  app.get('/users/:id', (c) => {
    // The 429 scenario: the floor answers the mock's rate-limit error for the limited app's token.
    if (c.req.header('authorization') === 'Bearer limited-token') return c.json(bodies.rateLimited, 429);
    return c.json(bodies.getUser);
  });
  app.post('/users', async (c) => {
    await c.req.json();
    return c.json(bodies.postUser);
  });
  // POST /events answers 202 with no body, as the mock does.
  app.post('/events', async (c) => {
    await c.req.json();
    return c.body(null, 202);
  });
  app.get('/counts', (c) => c.json(bodies.counts));
  app.get('/conversations/:id', (c) => c.json(bodies.conversation));
  app.get('/companies/:id/users', (c) => c.json(bodies.companyUsers));
  app.get('/__health', (c) => c.json({ status: 'ok' }));
  return app;
}

// Run as a script (not imported): serve.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const file = arg('--bodies');
  const bodies: Bodies = file ? { ...DEFAULT, ...(JSON.parse(readFileSync(file, 'utf8')) as Partial<Bodies>) } : DEFAULT;
  const port = Number(arg('--port') ?? 0);
  const app = bareApp(bodies);
  const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`bare-hono listening on http://127.0.0.1:${info.port}\n`);
  });

  const stop = () => {
    server.close(() => process.exit(0));
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
