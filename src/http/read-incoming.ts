// A request body read straight from Node's request stream, which @hono/node-server hands over as
// `c.env.incoming` when it serves the request: the Buffer as it arrived. The adapter's
// `arrayBuffer()` copies it into a new ArrayBuffer, an allocation that costs more than the copy
// (8% of a `POST /events`'s CPU in process), and its `text()` decodes without the fatal flag that
// tells invalid UTF-8 (a 400) from a U+FFFD the client sent.

import { IncomingMessage } from 'node:http';

/** The Node request behind a request, when there is one (served by the adapter, not `app.request()`). */
export function nodeRequestOf(env: unknown): IncomingMessage | undefined {
  const incoming = (env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

/**
 * Whether the body can be read here: the stream is as the server handed it over. One the client
 * left already (say during injected latency) goes to the adapter, which recovers a body that had
 * arrived whole before the disconnect.
 */
export const readableHere = (incoming: IncomingMessage): boolean => !incoming.destroyed && !incoming.readableDidRead && incoming.errored === null;

/**
 * The whole body, for a request that declared its length (Node's parser holds the body to it, so
 * the caller has already checked it against the limit). Rejects when the connection closes before
 * the body has ended.
 */
export function readIncoming(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('the connection closed before the body was complete'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}
