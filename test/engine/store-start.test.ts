// What the store makes of its fixtures at start: which app provisioned test apps copy, the file a
// refused fixture is reported under, and the parts limit held against an expansion made at build
// time; plus the events limit a seeded document is held to.

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { Clock } from '../../src/core/clock.js';
import { ApiError } from '../../src/core/errors.js';
import { DEFAULT_FIXTURES_DIR, loadFixtureDir } from '../../src/fixtures/files.js';
import { expandFixture } from '../../src/fixtures/expand.js';
import { createFaker } from '../../src/fixtures/faker.js';
import { FixtureError, type FixtureInput } from '../../src/fixtures/fixture-doc.js';
import { countParts } from '../../src/fixtures/generate.js';
import { REFERENCE_TIME } from '../../src/fixtures/normalize.js';
import { Store, type StoreOptions } from '../../src/state/store.js';
import { errorCodes, mock, TEST_NOW } from '../helpers.js';
import { ADA } from '../fixture-ids.js';

const clock = () => new Clock({ start: TEST_NOW, frozen: true });
const start = (fixtures: StoreOptions['fixtures'], over: Partial<StoreOptions> = {}) => new Store({ seed: 1, clock: clock(), fixtures, ...over });
const tiny = (id: string, token: string, over: Partial<FixtureInput> = {}): FixtureInput =>
  ({ app: { id, tokens: [token] }, admins: [{ id: '1', name: 'Solo', email: 'solo@example.com' }], ...over }) as FixtureInput;

function refusal(run: () => unknown): FixtureError {
  try {
    run();
  } catch (err) {
    if (err instanceof FixtureError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('provisioned test apps', () => {
  it('copy the demo app even when another fixture comes first', async () => {
    const loaded = loadFixtureDir(DEFAULT_FIXTURES_DIR, 1);
    expect(loaded.map((f) => f.input.app.id)).toEqual(['demo', 'other']);
    const store = start([...loaded].reverse());
    const app = createApp({ store, log: () => undefined });
    const res = await app.request(`/users/${ADA}`, { headers: { authorization: 'Bearer test_copy', accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user_id: string }).user_id).toBe('ada-1');
  });

  it('copy the first fixture when no app is called demo', async () => {
    const store = start([{ input: tiny('first', 'first-token', { tags: [{ id: '7', name: 'from-first' }] } as Partial<FixtureInput>) }, { input: tiny('second', 'second-token') }]);
    const app = createApp({ store, log: () => undefined });
    const res = await app.request('/tags', { headers: { authorization: 'Bearer test_copy', accept: 'application/json' } });
    expect(((await res.json()) as { tags: { name: string }[] }).tags.map((t) => t.name)).toEqual(['from-first']);
  });
});

describe('a refused fixture at start', () => {
  it('is reported under its file, or its place in the list when it has none', () => {
    const named = refusal(() => start([{ file: 'a.json', input: tiny('a', 'shared') }, { file: 'b.json', input: tiny('b', 'shared') }]));
    expect(named.file).toBe('b.json');
    expect(named.path).toBe('app.tokens');
    const unnamed = refusal(() => start([{ input: tiny('a', 'shared') }, { input: tiny('b', 'shared') }]));
    expect(unnamed.file).toBe('fixture #2');
    expect(unnamed.path).toBe('app.tokens');
  });

  it("lets an error that is not the fixture's pass as it is, not as a fixture's refusal", () => {
    const broken = new Error('the reporter broke');
    let thrown: unknown;
    try {
      start([{ file: 'a.json', input: tiny('a', 'a-token') }], {
        seedReporter: () => {
          throw broken;
        },
      });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBe(broken);
  });

  it('is refused when an earlier fixture is of the same app, so neither file replaces the other', () => {
    const twice = refusal(() => start([{ file: 'a.json', input: tiny('same', 'token-a') }, { file: 'b.json', input: tiny('same', 'token-b') }]));
    expect([twice.file, twice.path]).toEqual(['b.json', 'app.id']);
    expect(twice.message).toContain('app "same" is the app of an earlier fixture too');
  });

  it('holds an expansion made at build time to the parts limit, as a seed would be', () => {
    const input = tiny('p', 'p-token', { generate: { users: 2, conversations: 4 } } as Partial<FixtureInput>);
    const expanded = expandFixture(input, 1, () => createFaker(1, REFERENCE_TIME), 1);
    const parts = countParts(expanded.doc.conversations);
    expect(parts).toBeGreaterThanOrEqual(4);
    expect(start([{ file: 'p.json', input, expanded }], { limits: { parts } }).appIds()).toEqual(['p']);
    const over = refusal(() => start([{ file: 'p.json', input, expanded }], { limits: { parts: parts - 1 } }));
    expect(over.file).toBe('p.json');
    expect(over.path).toBe('generate.conversations');
  });

  it("counts only the expansion's generated parts against the limit, not the document's own", () => {
    const own = { id: 'v0000000000000000000000a', customers: ['u0000000000000000000000a'], author: { type: 'user', id: 'u0000000000000000000000a' }, parts: [{ id: 'own-1', part_type: 'comment', body: 'a', author: { type: 'user', id: 'u0000000000000000000000a' } }, { id: 'own-2', part_type: 'comment', body: 'b', author: { type: 'user', id: 'u0000000000000000000000a' } }] };
    const input = tiny('q', 'q-token', { customers: [{ id: 'u0000000000000000000000a', user_id: 'q-a' }], conversations: [own], generate: { users: 2, conversations: 4 } } as unknown as Partial<FixtureInput>);
    const expanded = expandFixture(input, 1, () => createFaker(1, REFERENCE_TIME), 1);
    const generated = countParts(expanded.doc.conversations) - 2;
    expect(start([{ file: 'q.json', input, expanded }], { limits: { parts: generated } }).appIds()).toEqual(['q']);
    expect(refusal(() => start([{ file: 'q.json', input, expanded }], { limits: { parts: generated - 1 } })).path).toBe('generate.conversations');
  });
});

describe('the events limit of a seeded document', () => {
  it('takes as many events as the limit, and refuses one more with 400 naming events', async () => {
    const m = mock({ limits: { events: 2 } });
    const doc = (n: number) => ({
      app: { id: 'ev', tokens: ['ev-token'] },
      admins: [{ id: '1', name: 'Solo', email: 'solo@example.com' }],
      customers: [{ id: 'u0000000000000000000000a', user_id: 'u-a' }],
      events: Array.from({ length: n }, (_, i) => ({ id: `e-${i}`, customer_id: 'u0000000000000000000000a', event_name: 'n', created_at: REFERENCE_TIME - i })),
    });
    expect((await m.call('POST', '/__admin/seed', { token: null, body: doc(2) })).status).toBe(200);
    const res = await m.call('POST', '/__admin/seed', { token: null, body: doc(3) });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('events');
  });
});

describe('what the store keeps per app', () => {
  it('draws each app\'s fault fractions from its own stream: another app\'s traffic moves none of them', async () => {
    const pattern = async (interleave: boolean) => {
      const m = mock({ seed: 5 });
      for (const app of ['demo', 'other']) await m.call('POST', `/__admin/faults?app=${app}`, { token: null, body: { error: 'server_error', fraction: 0.5 } });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) {
        out.push((await m.call('GET', '/admins')).status);
        if (interleave) await m.call('GET', '/admins', { token: 'other-token' });
      }
      return out;
    };
    const alone = await pattern(false);
    expect(alone).toContain(500);
    expect(alone).toContain(200);
    expect(await pattern(true)).toEqual(alone);
  });

  it('numbers journal entries one up from the last, across apps', async () => {
    const m = mock();
    await m.call('GET', '/admins');
    await m.call('GET', '/admins', { token: 'other-token' });
    await m.call('GET', '/tags', { token: 'other-token' });
    const entries = (await m.call('GET', '/__admin/requests', { token: null })).body.requests as { seq: number; app: string }[];
    expect(entries.map((e) => e.app)).toEqual(['demo', 'other', 'other']);
    const first = entries[0]?.seq as number;
    expect(entries.map((e) => e.seq)).toEqual([first, first + 1, first + 2]);
  });

  it('never counts a seeded app among the provisioned ones, however often it is used', async () => {
    const m = mock({ maxTestApps: 1 });
    await m.call('GET', '/admins');
    await m.call('GET', '/admins', { token: 'test_one' });
    await m.call('GET', '/admins');
    await m.call('GET', '/admins', { token: 'test_two' });
    const health = (await m.call('GET', '/__admin/health', { token: null })).body;
    expect(health.provisioned_apps).toBe(1);
    expect(health.apps).toEqual(['demo', 'other', 'test_two']);
  });
});

describe('byte budgets across the store', () => {
  it('count every app\'s notes: one app\'s fill the room another is refused', async () => {
    const m = mock({ byteBudgets: { notes: 10_000 } });
    const note = (token: string, id: string) => m.call('POST', '/notes', { token, body: { body: 'x'.repeat(2000), user: { id } } });
    expect((await note('demo-token', ADA)).status).toBe(200);
    expect((await note('test_budget', ADA)).status).toBe(200);
    const res = await note('test_budget', ADA);
    expect(res.status).toBe(403);
    expect(errorCodes(res)).toEqual(['resource_limit_exceeded']);
  });
});

describe("the store's API on an app it does not hold", () => {
  it('refuses a reset and an export with not_found naming app; the apps it holds still reset', () => {
    const store = start([{ file: 'a.json', input: tiny('a', 'a-token') }]);
    for (const call of [() => store.reset('nope'), () => store.exportApp('nope')]) {
      let thrown: unknown;
      try {
        call();
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).errors.map((e) => [e.code, e.field])).toEqual([['not_found', 'app']]);
    }
    expect(store.reset('a')).toEqual(['a']);
  });
});
