// The events' per-person skip list checked against a brute-force model: links on every level, the
// ends, cursor seeks; and levels a client cannot steer by how it interleaves people.
import { describe, expect, it } from 'vitest';
import { addEvent, evictOldest } from '../../../src/resources/events/timeline.js';
import { eventPage } from '../../../src/resources/events/rules.js';
import { eventWork, type EventMaps, type StoredEvent } from '../../../src/resources/events/log.js';

const maps = (): EventMaps => ({ events: new Map(), eventKeys: new Map(), eventIds: new Map(), eventPeople: new Map(), eventSummaries: new Map(), tallies: new Map() });
const heightOf = (e: StoredEvent): number => (e.links?.length ?? 0) / 2;
const newestFirst = (a: StoredEvent, b: StoredEvent): number => b.created_at - a.created_at || b.seq - a.seq;

function check(m: EventMaps, live: Map<number, StoredEvent>): void {
  const events = m.events as Map<number, StoredEvent>;
  for (const cid of new Set([...live.values()].map((e) => e.customer_id))) {
    const mine = [...live.values()].filter((e) => e.customer_id === cid).sort(newestFirst);
    const p = m.eventPeople.get(cid);
    expect(p).toBeDefined();
    const badLinks: string[] = [];
    for (let l = 0; l <= 9; l++) {
      const expected = mine.filter((e) => heightOf(events.get(e.seq) as StoredEvent) >= l).map((e) => e.seq);
      const got: number[] = [];
      let cur = l === 0 ? (p?.newest ?? 0) : (p?.tops?.[l - 1] ?? 0);
      let prev = 0;
      while (cur !== 0 && got.length <= mine.length) {
        got.push(cur);
        const e = events.get(cur) as StoredEvent;
        // Collected, not asserted one by one: an expect per link cost seconds.
        const newer = l === 0 ? e.newer : (e.links?.[2 * (l - 1) + 1] ?? 0);
        if (newer !== prev) badLinks.push(`newer link of ${cur} at ${l}: ${newer}, not ${prev}`);
        prev = cur;
        cur = l === 0 ? e.older : (e.links?.[2 * (l - 1)] ?? 0);
      }
      expect(got, `person ${cid} level ${l}`).toEqual(expected);
    }
    expect(badLinks).toEqual([]);
    expect(p?.oldest).toBe(mine[mine.length - 1]?.seq);
  }
}

describe('event skip list', () => {
  it('stays consistent under backdated inserts and evictions, and seeks as a walk would', () => {
    let s = 12345;
    const rnd = (n: number): number => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      // The high bits: an LCG's low two bits only count up, which made adds and evictions alternate
      // (the log never held more than one event, and no skip level was ever checked).
      return (s >>> 16) % n;
    };
    const m = maps();
    const live = new Map<number, StoredEvent>();
    let seq = 1;
    let first = 1;
    for (let i = 0; i < 2000; i++) {
      if (rnd(4) === 0 && live.size > 0) {
        evictOldest(m);
        live.delete(first++);
      } else {
        addEvent(m, { id: `id${i}`, customer_id: `p${rnd(3)}`, event_name: `e${i}`, created_at: 1000 + rnd(200), metadata: {} });
        live.set(seq, { ...(m.events.get(seq) as StoredEvent) });
        seq++;
      }
      if (i % 250 === 0) check(m, live);
    }
    check(m, live);
    for (const cid of ['p0', 'p1', 'p2']) {
      for (let t = 1000; t < 1200; t += 7) {
        const page = eventPage(m, cid, { ms: t * 1000 }, 5, 1200, Infinity).items.map((e) => e.seq);
        const expected = [...live.values()].filter((e) => e.customer_id === cid && e.created_at < t).sort(newestFirst).slice(0, 5).map((e) => e.seq);
        expect(page).toEqual(expected);
      }
    }
  });

  it('keeps an older-than-all insert logarithmic however a client interleaves people', () => {
    // The old levels hashed the place in the app's log, which the client steers: it sent every
    // place that hashed to level 0 to X, so X's timeline had no skip links and seek walked it all.
    const placeLevel = (seq: number): number => {
      let h = Math.imul(seq ^ (seq >>> 16), 0x45d9f3b) >>> 0;
      h = Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
      return (h & 3) === 0 ? 1 : 0;
    };
    const m = maps();
    let seq = 1;
    const add = (cid: string, at: number): void => addEvent(m, { id: `i${seq++}`, customer_id: cid, event_name: 'e', created_at: at, metadata: {} });
    while (seq <= 4000) add(placeLevel(seq) === 0 ? 'X' : 'Y', 1_000_000 + seq);
    while (placeLevel(seq) !== 0) add('Y', 1_000_000 + seq);
    const before = eventWork.reads;
    add('X', 5);
    // X holds ~3,000 events: a walk reads them all, the skip levels ~4 a level.
    expect(eventWork.reads - before).toBeLessThan(100);
  });
});
