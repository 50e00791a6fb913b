// A real webhook receiver on 127.0.0.1 for the delivery tests: it records what it is sent and
// answers each path by a plan (the last answer repeats), headers included (a redirect's Location),
// an answer held back until the test opens its gate.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** The answer's body (default `status <status>`). */
  body?: string;
  /** Answer only once this settles: the test decides when the mock hears back. */
  gate?: Promise<unknown>;
}

export interface Receiver {
  base: string;
  port: number;
  received: Received[];
  /** What each path answers, in turn; unplanned paths answer 200. */
  plan: Map<string, Answer[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Omit<Receiver, 'base' | 'port' | 'close'> = { received: [], plan: new Map() };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      receiver.received.push({ path, headers: req.headers, text, body: text ? JSON.parse(text) : null });
      const answers = receiver.plan.get(path) ?? [{ status: 200 }];
      const answer = (answers.length > 1 ? answers.shift() : answers[0]) as Answer;
      const reply = () => res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? `status ${answer.status}`);
      if (answer.gate) void answer.gate.then(reply);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    base: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
