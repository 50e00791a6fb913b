import { describe, expect, it } from 'vitest';
import { YIELD_AFTER_PARSE_BYTES } from '../../src/http/body.js';
import { mock } from '../helpers.js';

const m = mock();

/** How many turns of the event loop other work got while the request was handled. */
async function turnsDuring(body: string): Promise<{ status: number; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  turns = 0;
  try {
    const res = await m.call('POST', '/users', { raw: body, headers: { 'content-type': 'application/json' } });
    return { status: res.status, turns };
  } finally {
    running = false;
  }
}

const padded = (bytes: number): string => {
  const base = '{"user_id":"yield-1","ignored":"';
  return `${base}${'x'.repeat(bytes - base.length - 2)}"}`;
};

describe('a large body is parsed and handled in two turns of the event loop', () => {
  it('lets other work run between parsing and handling a body at the threshold', async () => {
    const { status, turns } = await turnsDuring(padded(YIELD_AFTER_PARSE_BYTES));
    expect(status).toBe(200);
    expect(turns).toBeGreaterThanOrEqual(1);
  });

  it('keeps a body under the threshold in one turn', async () => {
    const { status, turns } = await turnsDuring(padded(YIELD_AFTER_PARSE_BYTES - 1));
    expect(status).toBe(200);
    expect(turns).toBe(0);
  });
});
