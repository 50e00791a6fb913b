// Which app a control-plane request is about: `?app=` names a seeded app or a test_ token, which
// provisions its app exactly as its first API call would, so a test can set its app up first.

import { describe, expect, it } from 'vitest';
import { ADA } from '../fixture-ids.js';
import { mock } from '../helpers.js';

describe('?app= on the control plane', () => {
  it('provisions the app of a test_ token not used yet, the same app its token then reaches', async () => {
    const m = mock();
    const fault = await m.call('POST', '/__admin/faults?app=test_setup_first', { token: null, body: { operation_id: 'getUser', error: 'server_error' } });
    expect(fault.status).toBe(201);
    expect((await m.call('GET', '/__admin/health', { token: null })).body.provisioned_apps).toBe(1);
    const res = await m.call('GET', `/users/${ADA}`, { token: 'test_setup_first' });
    expect(res.status).toBe(500);
    // Other apps are untouched by that fault.
    expect((await m.call('GET', `/users/${ADA}`)).status).toBe(200);
    expect((await m.call('GET', '/__admin/state?app=test_setup_first', { token: null })).status).toBe(200);
  });

  it('names the apps and the way to provision one when ?app= names none', async () => {
    const m = mock();
    const res = await m.call('GET', '/__admin/state?app=nope', { token: null });
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([
      {
        code: 'not_found',
        field: 'app',
        message: 'No app "nope": name one of demo, other (GET /__admin/health lists them), or a test_ token, which provisions its app unless the mock runs with --no-test-apps.',
      },
    ]);
    expect((await m.call('GET', '/__admin/health', { token: null })).body.provisioned_apps).toBe(0);
  });

  it('does not provision when test apps are off', async () => {
    const m = mock({ testApps: false });
    expect((await m.call('GET', '/__admin/state?app=test_off', { token: null })).status).toBe(404);
  });

  it('runs what has fallen due on the app it names before answering, as an API call would', async () => {
    const m = mock();
    const job = (await m.call('POST', '/bulk/users', { body: { items: [{ method: 'post', data_type: 'user', data: { user_id: 'due-on-read' } }] } })).body;
    m.clock.advance(120);
    const state = await m.call('GET', '/__admin/state?app=demo', { token: null });
    expect(state.status).toBe(200);
    expect(state.body.customers.map((c: { user_id?: string }) => c.user_id)).toContain('due-on-read');
    // Nothing was left for an explicit run, and the job is done as its own endpoint sees it.
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).body).toEqual({ ran: 0 });
    expect((await m.call('GET', `/jobs/${job.id}`)).body.state).toBe('completed');
  });
});

