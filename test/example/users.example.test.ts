// The README's example test: each test picks a unique test_ token and so gets its own app.

import { expect, inject, it } from 'vitest';
import { ControlClient } from '../../src/lib.js';

const url = inject('mockUrl');
const control = new ControlClient(url);

it('creates a user in an app of its own', async ({ task }) => {
  const token = `test_${task.id}`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const res = await fetch(`${url}/users`, { method: 'POST', headers, body: JSON.stringify({ user_id: 'u-1', email: 'U1@example.com' }) });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { email: string }).email).toBe('u1@example.com');
  expect(await control.countRequests({ method: 'POST', path: '/users' }, { token })).toBe(1);
});

it('does not see the other test\'s user', async ({ task }) => {
  const token = `test_${task.id}`;
  const res = await fetch(`${url}/users?user_id=u-1`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(404);
});
