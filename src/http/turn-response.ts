// The server's responses end when the event loop's turn is over, not when the handler ends them.
// The answers to the requests read in one turn then leave one after another, so a client waiting
// on several connections is woken once for them rather than once for each. On the two-CPU VM the
// benchmarks run on, each wake-up of the client's idle CPU cost the server about 9 µs of its own,
// a tenth of a `POST /users`; in one turn the server reads up to one request per connection.
// An answer still leaves in the turn that made it: a lone request waits for nothing.

import { ServerResponse } from 'node:http';

// Taken when the module loads, so that a test suite that fakes the global timers after importing
// the mock (vitest's `vi.useFakeTimers()` replaces `setImmediate`) does not hold every answer.
const afterPoll = globalThis.setImmediate;

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

type End = (...args: unknown[]) => ServerResponse;
const end = ServerResponse.prototype.end as End;

export class TurnResponse extends ServerResponse {
  #endArgs: unknown[] | undefined;

  // `end(chunk?, encoding?, callback?)`, as Node's: the arguments are kept and passed on as given.
  override end(...args: unknown[]): this {
    if (this.#endArgs !== undefined) {
      // A second end() while the first waits is Node's no-op on an ended response.
      const callback = args.find((a) => typeof a === 'function') as (() => void) | undefined;
      if (callback !== undefined) this.once('finish', callback);
      return this;
    }
    if (this.writableEnded) return end.apply(this, args) as this;
    this.#endArgs = args;
    if (due.push(this) === 1) afterPoll(endDue);
    return this;
  }

  /** Ends the response now, with what end() was given (and lets go of the body). */
  endNow(): void {
    const args = this.#endArgs ?? [];
    this.#endArgs = undefined;
    end.apply(this, args);
  }
}
