// The duplicate rule (same person, event_name and created_at: accepted, stored once) against a
// plain model, under traffic that makes it hard: few seconds and names, so events of one person
// share seconds in runs of every length, backdated as often as not, with a small cap evicting the
// oldest all the time. The store compares a person's newest event and keys every other one
// (events/rules.ts heldAlready), so the newest changing hands, backdated events and evictions of either
// are what this exercises; halfway, the state is exported and seeded into a fresh mock, where every
// event held is the seeded base's (all keyed) and the traffic goes on over it.

import { describe, expect, it } from 'vitest';
import { mock, stateText, TEST_NOW, type TestMock } from '../../helpers.js';
import { generator } from '../../pick.js';

const T = TEST_NOW - 3600;
const CAP = 24;
const PEOPLE = ['ada-1', 'grace-2'];
const NAMES = ['a', 'b', 'c', 'd'];
const SECONDS = [T - 50, T - 40, T - 30, T - 20, T - 10, T];

interface Held {
  person: string;
  name: string;
  at: number;
  arrival: number;
}

/** A person's events as the list shows them: newest first by created_at, then by arrival. */
async function listed(m: TestMock, person: string): Promise<string[]> {
  const res = await m.call('GET', `/events?type=user&user_id=${person}&per_page=60`);
  expect(res.status).toBe(200);
  return (res.body.events as { event_name: string; created_at: number }[]).map((e) => `${e.event_name}@${e.created_at}`);
}

function expected(held: readonly Held[], person: string): string[] {
  return held
    .filter((e) => e.person === person)
    .sort((x, y) => y.at - x.at || y.arrival - x.arrival)
    .map((e) => `${e.name}@${e.at}`);
}

async function expectSame(m: TestMock, held: readonly Held[]): Promise<void> {
  for (const person of PEOPLE) expect(await listed(m, person)).toEqual(expected(held, person));
}

describe('the duplicate rule against a model', () => {
  for (const seed of [1, 2, 3]) {
    it(`stores each (person, name, second) once while held, through runs, evictions and a seed (seed ${seed})`, async () => {
      const pick = generator(seed);
      let m = mock({ limits: { events: CAP }, rateLimit: 1_000_000 });
      let held: Held[] = [];
      let duplicates = 0;
      for (let step = 0; step < 400; step++) {
        if (step === 200) {
          // Every event held becomes the seeded base's: its keys, runs and timeline go on from there.
          const exported = JSON.parse(await stateText(m));
          m = mock({ limits: { events: CAP }, rateLimit: 1_000_000 });
          expect((await m.call('POST', '/__admin/seed', { token: null, body: exported })).status).toBe(200);
          await expectSame(m, held);
        }
        const event = { person: PEOPLE[pick(PEOPLE.length)] as string, name: NAMES[pick(NAMES.length)] as string, at: SECONDS[pick(SECONDS.length)] as number, arrival: step };
        const res = await m.call('POST', '/events', { body: { event_name: event.name, created_at: event.at, user_id: event.person } });
        expect(res.status).toBe(202);
        if (held.some((e) => e.person === event.person && e.name === event.name && e.at === event.at)) duplicates++;
        else {
          // The oldest go first to make room, as the log does: a duplicate takes no place and evicts nothing.
          held = [...held.slice(held.length >= CAP ? held.length - CAP + 1 : 0), event];
        }
        if (step % 10 === 9 || step >= 190) await expectSame(m, held);
      }
      // The traffic had both: events refused as duplicates, and runs of several events at one second.
      expect(duplicates).toBeGreaterThan(50);
      const runs = new Map<string, number>();
      for (const e of held) runs.set(`${e.person}@${e.at}`, (runs.get(`${e.person}@${e.at}`) ?? 0) + 1);
      expect(Math.max(...runs.values())).toBeGreaterThanOrEqual(3);
    });
  }
});

describe('the duplicate key', () => {
  it('tells a name ending in a digit from a created_at with one more digit (e1 at 700000000, e at 1700000000)', async () => {
    const m = mock({ rateLimit: 1_000_000 });
    // The newest first: the other two are then matched by their keys, not against the newest event.
    const sent = [
      { event_name: 'e', created_at: 1_800_000_000 },
      { event_name: 'e1', created_at: 700_000_000 },
      { event_name: 'e', created_at: 1_700_000_000 },
      { event_name: 'e1', created_at: 700_000_000 },
      { event_name: 'e', created_at: 1_700_000_000 },
    ];
    for (const event of sent) expect((await m.call('POST', '/events', { body: { ...event, user_id: 'ada-1' } })).status).toBe(202);
    // The summary counts every event stored, older than 90 days too (the list shows only those).
    const res = await m.call('GET', '/events?type=user&user_id=ada-1&summary=true');
    expect(res.status).toBe(200);
    expect((res.body.events as { name: string; count: number }[]).map((e) => [e.name, e.count])).toEqual([
      ['e', 2],
      ['e1', 1],
    ]);
  });
});

describe('the duplicate and summary keys', () => {
  it('tell person "pab" with event "c" from person "pa" with event "bc" (ids of different lengths)', async () => {
    const m = mock({ rateLimit: 1_000_000 });
    const seeded = await m.call('POST', '/__admin/seed', {
      token: null,
      body: { app: { id: 'keys', tokens: ['keys-token'] }, customers: [{ id: 'pab', user_id: 'p1' }, { id: 'pa', user_id: 'p2' }] },
    });
    expect(seeded.status, seeded.text).toBe(200);
    const post = async (user_id: string, event_name: string, created_at: number) =>
      expect((await m.call('POST', '/events', { token: 'keys-token', body: { user_id, event_name, created_at } })).status).toBe(202);
    // p1's "c" is no longer its newest, and p2's "bc" of the same second is backdated behind p2's
    // newest, so the duplicate rule decides it by key.
    await post('p1', 'c', T);
    await post('p1', 'z', T + 10);
    await post('p2', 'y', T + 20);
    await post('p2', 'bc', T);
    const summary = async (user_id: string) => {
      const res = await m.call('GET', `/events?type=user&user_id=${user_id}&summary=true`, { token: 'keys-token' });
      expect(res.status).toBe(200);
      return (res.body.events as { name: string; count: number }[]).map((e) => [e.name, e.count]);
    };
    expect(await summary('p1')).toEqual([
      ['c', 1],
      ['z', 1],
    ]);
    expect(await summary('p2')).toEqual([
      ['y', 1],
      ['bc', 1],
    ]);
  });
});
