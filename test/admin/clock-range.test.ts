// The clock stays within the timestamps a fixture accepts, so whatever it stamps seeds back.

import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { Clock, CLOCK_MAX_SECONDS } from '../../src/core/clock.js';
import { MAX_TIME } from '../../src/schemas/fields.js';
import { errorCodes, mock, stateText, type TestMock } from '../helpers.js';

const clock = (m: TestMock) => m.call('GET', '/__admin/clock', { token: null });
const setClock = (m: TestMock, body: unknown) => m.call('POST', '/__admin/clock', { token: null, body });

describe('the clock\'s range', () => {
  it('ends at the largest timestamp a fixture accepts', () => {
    expect(CLOCK_MAX_SECONDS).toBe(MAX_TIME);
  });

  it('refuses an advance past it with 400 parameter_invalid on advance, changing nothing (frozen included)', async () => {
    const m = mock();
    expect((await setClock(m, { now: CLOCK_MAX_SECONDS - 10 })).status).toBe(200);
    const before = (await clock(m)).body;
    for (const body of [{ advance: 11 }, { advance: 11.5, frozen: false }, { advance: 10 * 365 * 86_400 }]) {
      const res = await setClock(m, body);
      expect(res.status).toBe(400);
      expect(errorCodes(res)).toEqual(['parameter_invalid']);
      expect(res.body.errors[0].field).toBe('advance');
      expect(res.body.errors[0].message).toContain(String(CLOCK_MAX_SECONDS));
      expect((await clock(m)).body).toEqual(before);
    }
  });

  it('refuses a now past it', async () => {
    const m = mock();
    const before = (await clock(m)).body;
    const res = await setClock(m, { now: CLOCK_MAX_SECONDS + 1 });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect((await clock(m)).body).toEqual(before);
  });

  it('at the limit, stamps a new user with it, and the exported state seeds back identically', async () => {
    const m = mock();
    await setClock(m, { now: CLOCK_MAX_SECONDS - 10 });
    expect((await setClock(m, { advance: 10 })).body).toEqual({ now: CLOCK_MAX_SECONDS, frozen: true });
    const created = await m.call('POST', '/users', { body: { user_id: 'last-second', email: 'last@example.com' } });
    expect(created.status).toBe(200);
    expect(created.body.created_at).toBe(CLOCK_MAX_SECONDS);
    const exported = await stateText(m);
    const seeded = await m.call('POST', '/__admin/seed', { token: null, body: JSON.parse(exported) });
    expect(seeded.status).toBe(200);
    expect(await stateText(m)).toBe(exported);
  });

  it('holds a running clock at the limit once the wall clock carries it there', async () => {
    let wall = 1_000_000;
    const m = mock({ clock: new Clock({ start: CLOCK_MAX_SECONDS - 1, wall: () => wall }) });
    wall += 5_000;
    expect((await clock(m)).body).toEqual({ now: CLOCK_MAX_SECONDS, frozen: false });
    expect((await m.call('POST', '/users', { body: { user_id: 'late' } })).body.created_at).toBe(CLOCK_MAX_SECONDS);
  });

  it('bounds --now the same way', () => {
    expect(parseConfig(['--now', String(CLOCK_MAX_SECONDS)], {})).toMatchObject({ now: CLOCK_MAX_SECONDS });
    expect(() => parseConfig(['--now', String(CLOCK_MAX_SECONDS + 1)], {})).toThrow(/--now/);
  });
});
