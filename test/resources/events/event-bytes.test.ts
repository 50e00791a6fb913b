// The events' byte budget at its exact edge (resources/events/log.ts eventBytes, rules.ts makeRoom): what an
// event measures, computed here from the README's rule, decides to the byte whether the app keeps
// its older events, gives up the oldest, or (with none of its own left) is refused.

import { describe, expect, it } from 'vitest';
import { ADA } from '../../fixture-ids.js';
import { errorCodes, mock, stateText, TEST_NOW, type TestMock } from '../../helpers.js';

const TEXT = 'x'.repeat(1000);
const OTHER = 'test_event_bytes';

/**
 * One event as kept: its metadata ({text}: the object's 32, the member's 24 and two bytes a
 * character of its name, the string's 16 and two bytes a character), then four bytes a character
 * of the person's id and the event's name (the record, the duplicate key and the summary key hold
 * them), two a character of its 36-character id (the record and the id map), and 400 for the
 * record, its links and its three map entries.
 */
const measured = (name: string, text = TEXT): number => 32 + (24 + 2 * 'text'.length) + (16 + 2 * text.length) + 4 * (ADA.length + name.length) + 2 * 36 + 400;

const post = (m: TestMock, name: string, at: number, token?: string) =>
  m.call('POST', '/events', { ...(token ? { token } : {}), body: { event_name: name, created_at: at, user_id: 'ada-1', metadata: { text: TEXT } } });
const names = async (m: TestMock) => ((await m.call('GET', '/events?type=user&user_id=ada-1')).body.events as { event_name: string }[]).map((e) => e.event_name);

describe('events byte budget, at the byte', () => {
  const one = measured('e-1');

  it('keeps two events in exactly their bytes; a third pushes out exactly the oldest', async () => {
    const m = mock({ byteBudgets: { events: 2 * one } });
    for (const [i, name] of ['e-1', 'e-2', 'e-3'].entries()) expect((await post(m, name, TEST_NOW - 100 + i)).status).toBe(202);
    expect(await names(m)).toEqual(['e-3', 'e-2']);
  });

  it('a byte less keeps one: the third pushes out both older events', async () => {
    const m = mock({ byteBudgets: { events: 2 * one - 1 } });
    expect((await post(m, 'e-1', TEST_NOW - 100)).status).toBe(202);
    // The second does not fit beside the first: the first goes.
    expect((await post(m, 'e-2', TEST_NOW - 99)).status).toBe(202);
    expect(await names(m)).toEqual(['e-2']);
  });

  it('an event of exactly the budget is kept; a byte less and an app with nothing to give is refused, changing nothing', async () => {
    const exact = mock({ byteBudgets: { events: one } });
    expect((await post(exact, 'e-1', TEST_NOW - 100)).status).toBe(202);
    expect(await names(exact)).toEqual(['e-1']);
    const under = mock({ byteBudgets: { events: one - 1 } });
    const before = await stateText(under);
    const res = await post(under, 'e-1', TEST_NOW - 100);
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await stateText(under)).toBe(before);
  });

  const other = async (m: TestMock) => ((await m.call('GET', '/events?type=user&user_id=ada-1', { token: OTHER })).body.events as { event_name: string }[]).map((e) => e.event_name);

  it('an app whose own events are exactly the room missing gives them all up', async () => {
    const m = mock({ byteBudgets: { events: 2 * one } });
    expect((await post(m, 'e-1', TEST_NOW - 100)).status).toBe(202);
    expect((await post(m, 'e-1', TEST_NOW - 100, OTHER)).status).toBe(202);
    expect((await post(m, 'e-2', TEST_NOW - 99, OTHER)).status).toBe(202);
    expect(await other(m)).toEqual(['e-2']);
    expect(await names(m)).toEqual(['e-1']);
  });

  it('an app whose own events cannot make the room is refused and keeps them', async () => {
    // The budget is full; the other app's next event is 2 bytes larger than all it holds.
    const m = mock({ byteBudgets: { events: 3 * one } });
    for (const [i, name] of ['e-1', 'e-2'].entries()) expect((await post(m, name, TEST_NOW - 100 + i)).status).toBe(202);
    expect((await post(m, 'e-1', TEST_NOW - 100, OTHER)).status).toBe(202);
    const res = await m.call('POST', '/events', { token: OTHER, body: { event_name: 'e-2', created_at: TEST_NOW - 99, user_id: 'ada-1', metadata: { text: `${TEXT}x` } } });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await other(m)).toEqual(['e-1']);
    expect(await names(m)).toEqual(['e-2', 'e-1']);
  });

  it('an app with no event of its own is refused while others hold the budget', async () => {
    const m = mock({ byteBudgets: { events: 2 * one } });
    for (const [i, name] of ['e-1', 'e-2'].entries()) expect((await post(m, name, TEST_NOW - 100 + i)).status).toBe(202);
    const res = await post(m, 'e-1', TEST_NOW - 100, OTHER);
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await other(m)).toEqual([]);
    expect(await names(m)).toEqual(['e-2', 'e-1']);
  });

  it('a refusal after the count cap has already evicted undoes the eviction too: the state is byte-identical', async () => {
    // Two events an app at most. The other app's third pushes out its oldest by count, then its
    // other one by bytes, and is still larger than the room left beside the demo app's two.
    const m = mock({ byteBudgets: { events: 4 * one }, limits: { events: 2 } });
    for (const [i, name] of ['e-1', 'e-2'].entries()) expect((await post(m, name, TEST_NOW - 100 + i)).status).toBe(202);
    for (const [i, name] of ['e-1', 'e-2'].entries()) expect((await post(m, name, TEST_NOW - 100 + i, OTHER)).status).toBe(202);
    const before = await stateText(m, OTHER);
    const res = await m.call('POST', '/events', { token: OTHER, body: { event_name: 'e-3', created_at: TEST_NOW - 98, user_id: 'ada-1', metadata: { text: TEXT, more: TEXT, most: TEXT } } });
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
    expect(await stateText(m, OTHER)).toBe(before);
    expect(await other(m)).toEqual(['e-2', 'e-1']);
    // And the app goes on as before the refusal: its next event pushes out exactly the oldest.
    expect((await post(m, 'e-3', TEST_NOW - 98, OTHER)).status).toBe(202);
    expect(await other(m)).toEqual(['e-3', 'e-2']);
  });

  it('evicted events give their bytes back exactly: the budget holds the same two events after any number of turns', async () => {
    const m = mock({ byteBudgets: { events: 2 * one } });
    for (let i = 0; i < 12; i++) expect((await post(m, `e-${i % 10}`, TEST_NOW - 100 + i)).status).toBe(202);
    expect(await names(m)).toEqual(['e-1', 'e-0']);
  });
});
