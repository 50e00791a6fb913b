// How deep a body may nest and how many problems one answer lists: both read off the request
// without walking or reporting it whole, so a 1 MiB body costs what parsing it costs.

import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../src/http/body.js';
import { MAX_PROBLEMS } from '../../src/schemas/validate.js';
import { expectRejected, mock } from '../helpers.js';

const nested = (levels: number): string => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

describe('body nesting', () => {
  it(`accepts a body nested exactly ${MAX_BODY_DEPTH} levels (the root object counts as one)`, async () => {
    const m = mock();
    const res = await m.call('POST', '/users', { raw: `{"user_id":"deep-ok","custom_attributes":{},"x":${nested(MAX_BODY_DEPTH - 1)}}`, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body.user_id).toBe('deep-ok');
  });

  it(`refuses a body nested ${MAX_BODY_DEPTH + 1} levels with 400 bad_request, and changes nothing`, async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/users', { raw: `{"user_id":"deep-no","x":${nested(MAX_BODY_DEPTH)}}`, headers: { 'content-type': 'application/json' } }, 400, ['bad_request']);
    expect(res.body.errors[0].message).toBe(`The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
  });

  it('counts arrays as levels too', async () => {
    const m = mock();
    const arrays = `${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}`;
    await expectRejected(m, 'POST', '/users', { raw: `{"user_id":"deep-arr","x":${arrays}}`, headers: { 'content-type': 'application/json' } }, 400, ['bad_request']);
  });

  it('does not count brackets inside strings, escaped quotes included', async () => {
    const m = mock();
    const brackets = `"\\"${'{['.repeat(100)}\\\\"`;
    const res = await m.call('POST', '/users', { raw: `{"user_id":"brackets","name":${brackets}}`, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(`"${'{['.repeat(100)}\\`);
  });
});

describe('problems listed in one answer', () => {
  it(`lists at most ${MAX_PROBLEMS} problems, in the validator's order, however many the body has`, async () => {
    const m = mock();
    const body: Record<string, unknown> = { type: 'lead', visitor: { user_id: '3f0b3a6c-7f6d-4d5e-9d2b-7a1c5e8f9a01' } };
    for (let i = 0; i < 500; i++) body[`unknown_${i}`] = i;
    // Unknown members are ignored (with warnings) unless the request is strict.
    const res = await expectRejected(m, 'POST', '/visitors/convert', { body, ...{ headers: { 'x-mock-strict': 'true' } } }, 400, Array(MAX_PROBLEMS).fill('parameter_invalid'));
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(Array.from({ length: MAX_PROBLEMS }, (_, i) => `unknown_${i}`));
  });
});
