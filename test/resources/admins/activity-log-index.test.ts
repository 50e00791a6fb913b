// The activity log's sorted index, once built by a list read, follows every later entry (a
// mutant building it in another index group went unnoticed behind an "equivalent" mark).

import { describe, expect, it } from 'vitest';
import { activityLogsBetween } from '../../../src/resources/admins/activity-logs.js';
import type { AppState } from '../../../src/state/app-state.js';
import { mock } from '../../helpers.js';

const V12 = { 'intercom-version': '1.2' };

describe('activity log index kept current after it is built', () => {
  it('an away change made after a first list shows in the next list', async () => {
    const m = mock();
    const first = await m.call('GET', '/admins/activity_logs?created_at_after=0', { headers: V12 });
    expect(first.status).toBe(200);
    expect(first.body.activity_logs).toEqual([]);
    const put = await m.call('PUT', '/admins/814860/away', { body: { away_mode_enabled: true, away_mode_reassign: false } });
    expect(put.status).toBe(200);
    const second = await m.call('GET', '/admins/activity_logs?created_at_after=0', { headers: V12 });
    expect(second.status).toBe(200);
    expect(second.body.activity_logs.map((l: { activity_type: string }) => l.activity_type)).toEqual(['admin_away_mode_change']);
  });
});

describe('the activity log\'s listing', () => {
  it('answers a slice past its end with no entries, not entries counted back from the end', async () => {
    const m = mock();
    for (const enabled of [true, false, true, false, true, false]) {
      expect((await m.call('PUT', '/admins/814860/away', { body: { away_mode_enabled: enabled, away_mode_reassign: false } })).status).toBe(200);
    }
    const logs = activityLogsBetween(m.store.app('demo') as AppState, 0, Number.MAX_SAFE_INTEGER);
    expect(logs.total).toBe(6);
    expect(logs.slice(4, 6)).toHaveLength(2);
    expect(logs.slice(6, 8)).toEqual([]);
    expect(logs.slice(8, 10)).toEqual([]);
    expect(logs.slice(5, 10)).toHaveLength(1);
  });
});
