// The events' bookkeeping beyond the skip links (resources/events/timeline.ts): eviction counts a summary down and
// leaves nothing behind once a person's last event goes, and a page read from a next link's cursor
// costs its own length, never a descent.
import { describe, expect, it } from 'vitest';
import { addEvent, evictOldest } from '../../../src/resources/events/timeline.js';
import { eventPage, summariesOf } from '../../../src/resources/events/rules.js';
import { eventWork, type EventMaps } from '../../../src/resources/events/log.js';

const maps = (): EventMaps => ({ events: new Map(), eventKeys: new Map(), eventIds: new Map(), eventPeople: new Map(), eventSummaries: new Map(), tallies: new Map() });
const sizes = (m: EventMaps) => [m.events, m.eventKeys, m.eventIds, m.eventPeople, m.eventSummaries].map((x) => (x as Map<string, unknown>).size);
const summaries = (m: EventMaps, cid: string) => summariesOf(m, cid).map((s) => [s.name, s.count, s.kept]);

describe('event eviction bookkeeping', () => {
  it('counts a summary down while it keeps events, unlinks it at none, and forgets a person with none left', () => {
    const m = maps();
    const add = (id: string, cid: string, name: string, at: number) => addEvent(m, { id, customer_id: cid, event_name: name, created_at: at, metadata: {} });
    add('1', 'p', 'a', 10);
    add('2', 'p', 'b', 11);
    add('3', 'q', 'x', 12);
    add('4', 'p', 'a', 13);
    add('5', 'p', 'c', 14);
    expect(summaries(m, 'p')).toEqual([['a', 2, 2], ['b', 1, 1], ['c', 1, 1]]);
    evictOldest(m);
    // The first a goes: its summary keeps counting both, one still kept.
    expect(summaries(m, 'p')).toEqual([['a', 2, 1], ['b', 1, 1], ['c', 1, 1]]);
    evictOldest(m);
    // b, in the middle of the list, goes: a and c are joined both ways.
    expect(summaries(m, 'p')).toEqual([['a', 2, 1], ['c', 1, 1]]);
    expect([m.eventSummaries.get('p\u0000a')?.next, m.eventSummaries.get('p\u0000c')?.prev]).toEqual(['c', 'a']);
    evictOldest(m);
    // q's only event goes: q is forgotten, summary and all.
    expect(m.eventPeople.get('q')).toBeUndefined();
    expect(summaries(m, 'q')).toEqual([]);
    evictOldest(m);
    // a, the head, goes: c is the whole list.
    expect(summaries(m, 'p')).toEqual([['c', 1, 1]]);
    expect([m.eventPeople.get('p')?.first_name, m.eventPeople.get('p')?.last_name, m.eventSummaries.get('p\u0000c')?.prev]).toEqual(['c', 'c', null]);
    evictOldest(m);
    expect(sizes(m)).toEqual([0, 0, 0, 0, 0]);
    // A name seen again starts a new entry.
    add('6', 'p', 'a', 15);
    expect(summaries(m, 'p')).toEqual([['a', 1, 1]]);
  });

  it('evicting the tail of a summary list leaves the one before it last', () => {
    const m = maps();
    addEvent(m, { id: '1', customer_id: 'p', event_name: 'a', created_at: 20, metadata: {} });
    addEvent(m, { id: '2', customer_id: 'p', event_name: 'b', created_at: 10, metadata: {} });
    addEvent(m, { id: '3', customer_id: 'p', event_name: 'a', created_at: 30, metadata: {} });
    evictOldest(m);
    evictOldest(m);
    expect(summaries(m, 'p')).toEqual([['a', 2, 1]]);
    expect([m.eventPeople.get('p')?.first_name, m.eventPeople.get('p')?.last_name, m.eventSummaries.get('p\u0000a')?.next]).toEqual(['a', 'a', null]);
  });
});

describe('event records', () => {
  it('an event on no skip level holds no links array: three in four events, each an allocation saved', () => {
    const m = maps();
    for (let i = 1; i <= 40; i++) addEvent(m, { id: `${i}`, customer_id: 'p', event_name: 'e', created_at: 1000 + i, metadata: {} });
    const events = [...(m.events as Map<number, { links?: number[] }>).values()];
    const linked = events.filter((e) => e.links !== undefined);
    // Some are on a level; none holds an empty array.
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.filter((e) => e.links?.length === 0)).toEqual([]);
  });
});

describe('event pages', () => {
  it('a page from a next link\'s cursor reads its own events and the one after, nothing more', () => {
    const m = maps();
    for (let i = 1; i <= 200; i++) addEvent(m, { id: `${i}`, customer_id: 'p', event_name: `e${i}`, created_at: 1000 + i, metadata: {} });
    const first = eventPage(m, 'p', undefined, 5, 2000, Infinity);
    expect(first.items.map((e) => e.seq)).toEqual([200, 199, 198, 197, 196]);
    const last = first.items[4];
    if (!last) throw new Error('no last item');
    const before = eventWork.reads;
    const next = eventPage(m, 'p', { ms: last.created_at * 1000, seq: last.seq }, 5, 2000, Infinity);
    expect(next.items.map((e) => e.seq)).toEqual([195, 194, 193, 192, 191]);
    expect(next.more).toBe(true);
    // The cursor's event, the five listed, and the sixth that says more follow.
    expect(eventWork.reads - before).toBe(7);
    // At the oldest end the page stops on the empty link (place 0) without a read.
    const third = eventPage(m, 'p', { ms: 1003_000, seq: 3 }, 5, 2000, Infinity);
    expect(third.items.map((e) => e.seq)).toEqual([2, 1]);
    expect(third.more).toBe(false);
    expect(eventWork.reads - before).toBe(7 + 3);
  });
});

describe('the duplicate keys', () => {
  // The duplicate rule compares a person's newest event and asks eventKeys about every other
  // (events/rules.ts heldAlready): an event in order keys the one it follows, a backdated one itself.
  it('key every event but its person\'s newest, each going with its eviction, and addEvent puts no id aside', () => {
    const m = maps();
    const add = (id: string, cid: string, name: string, at: number) => addEvent(m, { id, customer_id: cid, event_name: name, created_at: at, metadata: {} });
    const keys = () => [...(m.eventKeys as Map<string, number>)].map(([k, seq]) => [k.replaceAll('\u0000', ' '), seq]);
    add('1', 'p', 'a', 10);
    // Another person's newest, alone: not keyed.
    add('2', 'q', 'a', 10);
    expect(sizes(m)).toEqual([2, 0, 0, 2, 2]);
    add('3', 'p', 'b', 11);
    add('4', 'p', 'c', 11);
    // Backdated to a's second: keyed at once, and p's newest (c) still not.
    add('5', 'p', 'd', 10);
    expect(keys()).toEqual([['p a 10', 1], ['p b 11', 3], ['p d 10', 5]]);
    evictOldest(m);
    expect(keys()).toEqual([['p b 11', 3], ['p d 10', 5]]);
    expect(sizes(m)[2]).toBe(0);
  });
});
