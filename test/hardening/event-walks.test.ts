// Events never walk a person's history: submitting in order, evicting the oldest and following a
// next link each read a bounded number of event records, counted (not timed) on a person with
// 3,000 events.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventWork } from '../../src/resources/events/log.js';
import { levelOf, setLevelKey } from '../../src/resources/events/timeline.js';
import { mock, TEST_NOW, type TestMock } from '../helpers.js';
import { ROOT } from '../real.js';

const N = 3000;
const ADA = '5714dd359a3fd47136000001';

function busyApp(limit = 10_000): TestMock {
  const m = mock({ limits: { events: limit } });
  const events = Array.from({ length: N }, (_, i) => ({ id: `ev-${i}`, customer_id: ADA, event_name: `e${i % 7}`, created_at: TEST_NOW - N + i, metadata: {} }));
  m.store.seedApp({ app: { id: 'demo', tokens: ['demo-token'] }, customers: [{ id: ADA, user_id: 'ada-1', email: 'ada@example.com' }], events }, 'replace');
  return m;
}

// A descent of the skip levels (resources/events/timeline.ts): about 4 reads a level, 10 levels; a walk read
// half the person's events (1,500 here) before.
const LOG_READS = 60;

const work = async (m: TestMock, method: string, path: string, body?: unknown) => {
  const before = eventWork.reads;
  const res = await m.call(method, path, body === undefined ? {} : { body });
  return { res, reads: eventWork.reads - before };
};

describe('event reads are bounded by the request, not by the person\'s events', () => {
  it('a page reached by its next link reads its own events', async () => {
    const m = busyApp();
    let path = '/events?type=user&user_id=ada-1&per_page=60';
    // Pages 1 to 10, the last of them 600 events deep.
    for (let page = 0; page < 10; page++) {
      const { res, reads } = await work(m, 'GET', path);
      expect(res.body.events).toHaveLength(60);
      expect(reads).toBeLessThanOrEqual(62);
      const next = new URL(res.body.pages.next as string);
      path = next.pathname + next.search;
    }
  });

  it('an event submitted in order, and one older than all, each evicting the oldest, read a few records', async () => {
    const m = busyApp(N);
    const { res, reads } = await work(m, 'POST', '/events', { event_name: 'new', created_at: TEST_NOW + 1, user_id: 'ada-1' });
    expect(res.status).toBe(202);
    expect(reads).toBeLessThanOrEqual(4);
    // Older than all (history imported newest first): a descent of the skip levels, O(log k).
    const oldest = await work(m, 'POST', '/events', { event_name: 'old', created_at: TEST_NOW - 2 * N, user_id: 'ada-1' });
    expect(oldest.res.status).toBe(202);
    expect(oldest.reads).toBeLessThanOrEqual(LOG_READS);
    const summary = await m.call('GET', '/events?type=user&user_id=ada-1&summary=true');
    // The evicted event was the first e0: the entry lives on (other e0 are kept) and still counts it.
    expect(summary.body.events.find((e: { name: string }) => e.name === 'e0').count).toBe(Math.ceil(N / 7));
    const kept = await m.call('GET', '/__admin/state?app=demo', { token: null });
    expect(JSON.parse(kept.text).events[0].id).toBe('ev-2');
  });

  it('a backdated event in the middle of the timeline, and a bare before=<ms>, read O(log k) records', async () => {
    const m = busyApp();
    const middle = await work(m, 'POST', '/events', { event_name: 'mid', created_at: TEST_NOW - N / 2, user_id: 'ada-1' });
    expect(middle.res.status).toBe(202);
    expect(middle.reads).toBeLessThanOrEqual(LOG_READS);
    const at = (TEST_NOW - N / 2) * 1000;
    const page = await work(m, 'GET', `/events?type=user&user_id=ada-1&per_page=3&before=${at}`);
    expect(page.res.body.events.map((e: { event_name: string }) => e.event_name)).toEqual([`e${(N / 2 - 1) % 7}`, `e${(N / 2 - 2) % 7}`, `e${(N / 2 - 3) % 7}`]);
    expect(page.reads).toBeLessThanOrEqual(LOG_READS + 4);
  });

  it('a duplicate reads the person\'s newest event only, whatever order the timeline was built in', async () => {
    // A client that knew the level key could give every event of level 0 the oldest times, and a
    // descent would then walk them (the next test). The duplicate rule never descends
    // (events/rules.ts heldAlready): the newest, then one lookup. The key here is the test's (0).
    const m = mock({ rateLimit: 1_000_000 });
    const sent: { name: string; at: number }[] = [];
    let low = TEST_NOW - 10 * N;
    let high = TEST_NOW - N;
    for (let i = 0; i < 600; i++) {
      const at = levelOf(ADA, i) === 0 ? low++ : high++;
      sent.push({ name: `e${i}`, at });
      expect((await m.call('POST', '/events', { body: { event_name: `e${i}`, created_at: at, user_id: 'ada-1' } })).status).toBe(202);
    }
    for (const e of [sent[0], sent[300], sent[599]]) {
      const { res, reads } = await work(m, 'POST', '/events', { event_name: e?.name, created_at: e?.at, user_id: 'ada-1' });
      expect(res.status).toBe(202);
      expect(reads).toBe(1);
    }
    // Stored once each: 600 events, the duplicates added none.
    const state = JSON.parse((await m.call('GET', '/__admin/state?app=demo', { token: null })).text);
    expect(state.events).toHaveLength(600);
  });
});

describe('the skip levels are keyed by a secret of the process', () => {
  const GUESS = 0;
  const SERVER = 0x9e3779b9;
  afterEach(() => setLevelKey(0));

  /** A timeline whose events of level 0, as the levels under `guess` give them, hold the oldest times. */
  function orderedAgainst(guess: number): TestMock {
    let low = TEST_NOW - 10 * N;
    let high = TEST_NOW - N;
    const events = Array.from({ length: N }, (_, i) => ({ id: `ev-${i}`, customer_id: ADA, event_name: `e${i % 7}`, created_at: levelOf(ADA, i, guess) === 0 ? low++ : high++, metadata: {} }));
    const m = mock({ limits: { events: 10_000 } });
    m.store.seedApp({ app: { id: 'demo', tokens: ['demo-token'] }, customers: [{ id: ADA, user_id: 'ada-1', email: 'ada@example.com' }], events }, 'replace');
    return m;
  }

  /** A backdated event and a bare before= into the middle of the oldest stretch: the reads of each. */
  async function intoTheOldest(m: TestMock): Promise<number[]> {
    const at = TEST_NOW - 10 * N + 1000;
    const backdated = await work(m, 'POST', '/events', { event_name: 'late', created_at: at, user_id: 'ada-1' });
    expect(backdated.res.status).toBe(202);
    const page = await work(m, 'GET', `/events?type=user&user_id=ada-1&per_page=3&before=${at * 1000}`);
    expect(page.res.status).toBe(200);
    expect(page.res.body.events).toHaveLength(3);
    return [backdated.reads, page.reads - 3];
  }

  it('a client that orders its times by levels it computed reads O(log k) unless it has the key', async () => {
    setLevelKey(SERVER);
    const guessedWrong = await intoTheOldest(orderedAgainst(GUESS));
    for (const reads of guessedWrong) expect(reads).toBeLessThanOrEqual(LOG_READS);
    // The same requests against a server whose key the client had: each descent walks the stretch.
    setLevelKey(GUESS);
    const guessedRight = await intoTheOldest(orderedAgainst(GUESS));
    for (const reads of guessedRight) expect(reads).toBeGreaterThan(500);
  });

  it('answers do not depend on the key: the same requests give the same bytes under two keys', async () => {
    const run = async (key: number): Promise<string[]> => {
      setLevelKey(key);
      const m = mock({ rateLimit: 1_000_000, limits: { events: 400 } });
      const out: string[] = [];
      let x = 7;
      // Times drawn out of order, ties included, past the cap so the oldest are evicted.
      for (let i = 0; i < 600; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        const res = await m.call('POST', '/events', { body: { event_name: `e${(x >>> 16) % 5}`, created_at: TEST_NOW - ((x >>> 8) % 900), user_id: 'ada-1' } });
        out.push(String(res.status));
      }
      let path = '/events?type=user&user_id=ada-1&per_page=50';
      for (let page = 0; page < 10 && path; page++) {
        const res = await m.call('GET', path);
        out.push(res.text);
        const next = res.body.pages?.next as string | undefined;
        path = next ? new URL(next).pathname + new URL(next).search : '';
      }
      for (const at of [TEST_NOW - 450, TEST_NOW - 899, TEST_NOW]) out.push((await m.call('GET', `/events?type=user&user_id=ada-1&per_page=5&before=${at * 1000}`)).text);
      out.push((await m.call('GET', '/events?type=user&user_id=ada-1&summary=true')).text);
      out.push((await m.call('GET', '/__admin/state?app=demo', { token: null })).text);
      return out;
    };
    const first = await run(1);
    // Full pages, and the cap reached (the oldest evicted): the comparison covers both paths.
    expect(JSON.parse(first[600] as string).events).toHaveLength(50);
    expect(JSON.parse(first.at(-1) as string).events).toHaveLength(400);
    expect(await run(0xdeadbeef)).toEqual(first);
  });

  it('each process draws its own key', () => {
    const draw = () => execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(join(ROOT, 'dist/src/resources/events/timeline.js'))}); process.stdout.write(String(m.setLevelKey(0)));`], { encoding: 'utf8' });
    const keys = [draw(), draw(), draw()];
    for (const key of keys) expect(key).toMatch(/^\d+$/);
    expect(new Set(keys).size).toBe(3);
  });
});
