// The server's responses end when the event loop's turn is over, not when the handler ends them.
// The answers to the requests read in one turn then leave one after another, so a client waiting
// on several connections is woken once for them rather than once for each. On the two-CPU VM the
// benchmarks run on, each wake-up of the client's idle CPU cost the server about 9 µs of its own,
// a tenth of a `POST /users`; in one turn the server reads up to one request per connection.
// An answer still leaves in the turn that made it: a lone request waits for nothing.

import { OutgoingMessage, ServerResponse } from 'node:http';
// The module's own binding, not the global: a test suite that fakes the global timers
// (`vi.useFakeTimers()` replaces `setImmediate`), before or after importing the mock, still gets
// its answers.
import { setImmediate as afterPoll } from 'node:timers';

type Method = (this: ServerResponse, ...args: unknown[]) => unknown;
const node = ServerResponse.prototype as unknown as Record<string, Method | undefined>;
const nodeEnd = node.end as Method;
const nodeDestroy = node.destroy as Method;
// Node's own `writableEnded` (what `finished` says, should a Node release drop the getter).
const nodeEnded: (this: ServerResponse) => boolean =
  Object.getOwnPropertyDescriptor(OutgoingMessage.prototype, 'writableEnded')?.get ??
  function finished(this: ServerResponse) {
    return (this as unknown as { finished: boolean }).finished;
  };

/**
 * What a handler may still do to a response after ending it. Each is done after the held end, so
 * Node answers it as it would have without the wait (a write after the end is Node's error).
 */
const AFTER_END = ['write', 'writeHead', 'setHeader', 'setHeaders', 'appendHeader', 'removeHeader', 'flushHeaders', 'addTrailers'] as const;

let due: TurnResponse[] = [];

function endDue(): void {
  const ending = due;
  due = [];
  for (const res of ending) {
    try {
      res.endNow();
    } catch {
      // Ending cannot fail for the chunks the adapter writes; if it did, that one connection goes
      // and the rest of the turn's answers still leave.
      res.destroy();
    }
  }
}

export class TurnResponse extends ServerResponse {
  #held: unknown[] | undefined;

  /** Ends the response now with what end() was given, if it waits. */
  endNow(): void {
    const args = this.#held;
    if (args === undefined) return;
    this.#held = undefined;
    nodeEnd.apply(this, args);
  }

  static {
    const define = (name: string, value: unknown, as: 'value' | 'get' = 'value') =>
      Object.defineProperty(TurnResponse.prototype, name, { [as]: value, configurable: true, ...(as === 'value' ? { writable: true } : {}) });
    // `end(chunk?, encoding?, callback?)`: the first call waits for the end of the turn; another
    // gets Node's answer to a second end.
    define('end', function end(this: TurnResponse, ...args: unknown[]) {
      if (this.#held === undefined && !nodeEnded.call(this)) {
        this.#held = args;
        if (due.push(this) === 1) afterPoll(endDue);
        return this;
      }
      this.endNow();
      return nodeEnd.apply(this, args);
    });
    // True from the first end(), as Node's.
    define('writableEnded', function writableEnded(this: TurnResponse) {
      return this.#held !== undefined || nodeEnded.call(this);
    }, 'get');
    for (const name of AFTER_END) {
      const own = node[name];
      if (own === undefined) continue;
      define(name, function afterEnd(this: TurnResponse, ...args: unknown[]) {
        this.endNow();
        return own.apply(this, args);
      });
    }
    // The whole answer is written before the connection goes, as when end() wrote it at once (the
    // adapter ends an answer and destroys it when a response body fails).
    define('destroy', function destroy(this: TurnResponse, ...args: unknown[]) {
      try {
        this.endNow();
      } catch {
        // Destroyed all the same.
      }
      return nodeDestroy.apply(this, args);
    });
  }
}
