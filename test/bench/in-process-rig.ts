// The in-process app the memory benches fill: a store on a frozen clock with no rate limit to speak
// of, test_ tokens that provision one app each, a POST that reads its answer, and customer
// attributes at the attribute limit (250 of 255 characters).

import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { createStore } from '../../src/setup.js';

/** Where the rig's frozen clock stands. */
export const RIG_START = 1_700_000_000;

export function inProcessRig(name: string, apps: number) {
  const store = createStore({ clock: new Clock({ start: RIG_START, frozen: true }), rateLimit: 1_000_000_000 });
  const app = createApp({ store, log: () => undefined });
  const tokens = Array.from({ length: apps }, (_, i) => `test_${name}_${i}`);
  const headers = (token: string | null) => ({ ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', accept: 'application/json' });
  const post = async (token: string | null, path: string, body: unknown): Promise<number> => {
    const res = await app.fetch(new Request(`http://localhost${path}`, { method: 'POST', headers: headers(token), body: JSON.stringify(body) }));
    await res.arrayBuffer();
    return res.status;
  };
  const attrs = (n: number) => Object.fromEntries(Array.from({ length: 250 }, (_, k) => [`attr_${k}`, `${n}-${'v'.repeat(250)}`.slice(0, 255)]));
  return { store, app, tokens, headers, post, attrs };
}
