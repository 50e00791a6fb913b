import { describe, expect, it } from 'vitest';
import { customerSchema } from '../../../src/resources/customers/shapes.js';
import { validate } from '../../../src/schemas/validate.js';
import { errorCodes, mock, TEST_NOW, type TestMock, stateText as state, expectRejected } from '../../helpers.js';
import { ADA, LEAD, LINUS, VISITOR, VISITOR_2, VISITOR_USER_ID } from '../../fixture-ids.js';

const exported = async (m: TestMock) => JSON.parse(await state(m)) as { customers: { id: string; type: string }[] };

const rejects = (m: TestMock, method: string, path: string, body: unknown, status: number, codes: string[]) =>
  expectRejected(m, method, path, { body }, status, codes);

for (const method of ['PUT', 'POST']) {
  describe(`${method} /visitors`, () => {
    it('updates a visitor found by user_id and returns it', async () => {
      const m = mock();
      const res = await m.call(method, '/visitors', { body: { user_id: VISITOR_USER_ID, name: 'Otter', custom_attributes: { plan_tier: 'free' } } });
      expect(res.status).toBe(200);
      expect(validate(customerSchema, res.body)).toEqual([]);
      expect(res.body).toMatchObject({ type: 'visitor', id: VISITOR, user_id: VISITOR_USER_ID, name: 'Otter', anonymous: true, updated_at: TEST_NOW });
      expect(res.body.custom_attributes).toEqual({ plan_tier: 'free' });
    });

    it('updates a visitor found by id', async () => {
      const m = mock();
      const res = await m.call(method, '/visitors', { body: { id: VISITOR_2, last_seen_user_agent: 'ua' } });
      expect(res.body).toMatchObject({ type: 'visitor', id: VISITOR_2, user_agent_data: 'ua', custom_attributes: { newsletter: false } });
    });

    it('answers 404 not_found "Visitor Not Found" for an unknown visitor', async () => {
      const m = mock();
      const res = await rejects(m, method, '/visitors', { user_id: 'nobody', name: 'x' }, 404, ['not_found']);
      expect(res.body.errors[0].message).toBe('Visitor Not Found');
    });

    it('answers 404 not_found for the id of a lead or a user', async () => {
      const m = mock();
      await rejects(m, method, '/visitors', { id: LEAD, name: 'x' }, 404, ['not_found']);
      await rejects(m, method, '/visitors', { id: ADA, name: 'x' }, 404, ['not_found']);
    });

    it('answers 400 when only an email is sent: an email cannot identify a visitor', async () => {
      const m = mock();
      const res = await rejects(m, method, '/visitors', { email: 'who@example.com' }, 400, ['parameter_not_found']);
      expect(res.body.errors[0].message).toMatch(/email cannot identify/);
    });

    it('answers 400 parameter_not_found for an empty body', async () => {
      const m = mock();
      await rejects(m, method, '/visitors', {}, 400, ['parameter_not_found']);
    });

    it('rejects bad custom attributes and signed_up_at, changing nothing', async () => {
      const m = mock();
      const res = await rejects(m, method, '/visitors', { id: VISITOR, signed_up_at: 5, custom_attributes: { x: [1] } }, 400, ['parameter_invalid', 'parameter_invalid']);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['custom_attributes.x', 'signed_up_at']);
    });
  });
}

describe('PUT /visitors with an email: conversion to a lead', () => {
  it('answers with the lead (type contact, same id and user_id), visible through every read path', async () => {
    const m = mock();
    const res = await m.call('PUT', '/visitors', { body: { user_id: VISITOR_USER_ID, email: 'Otter@Example.com', name: 'Now a lead' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'contact', id: VISITOR, user_id: VISITOR_USER_ID, email: 'otter@example.com', anonymous: true, name: 'Now a lead' });

    const byId = await m.call('GET', `/contacts/${VISITOR}`);
    expect(byId.body).toMatchObject({ type: 'contact', id: VISITOR, email: 'otter@example.com' });
    expect((await m.call('GET', '/contacts?email=otter@example.com')).body.contacts.map((c: { id: string }) => c.id)).toEqual([VISITOR]);
    expect((await m.call('GET', `/users/${VISITOR}`)).body.type).toBe('contact');
    expect((await exported(m)).customers.find((c) => c.id === VISITOR)?.type).toBe('contact');
  });

  it('answers 404 to a later update of the same visitor', async () => {
    const m = mock();
    await m.call('PUT', '/visitors', { body: { id: VISITOR, email: 'otter@example.com' } });
    const res = await m.call('PUT', '/visitors', { body: { id: VISITOR, name: 'again' } });
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['not_found']);
    const byUserId = await m.call('PUT', '/visitors', { body: { user_id: VISITOR_USER_ID, name: 'again' } });
    expect(byUserId.status).toBe(404);
  });

  it('converts nothing when the conversion request is rejected', async () => {
    const m = mock();
    await rejects(m, 'PUT', '/visitors', { id: VISITOR, email: 'otter@example.com', custom_attributes: { 'a$b': 1 } }, 400, ['parameter_invalid']);
    expect((await m.call('GET', `/contacts/${VISITOR}`)).status).toBe(404);
  });

  it('fills the avatar of the new lead asynchronously', async () => {
    const m = mock();
    const res = await m.call('PUT', '/visitors', { body: { id: VISITOR, email: 'otter@example.com' } });
    expect(res.body.avatar.image_url).toBeNull();
    await m.call('POST', '/__admin/jobs/run?app=demo');
    expect((await m.call('GET', `/contacts/${VISITOR}`)).body.avatar.image_url).toMatch(/^https:/);
  });
});

describe('POST /visitors/convert', () => {
  it('converts a visitor into a lead with type lead', async () => {
    const m = mock();
    const res = await m.call('POST', '/visitors/convert', { body: { visitor: { user_id: VISITOR_USER_ID }, type: 'lead' } });
    expect(res.status).toBe(200);
    expect(validate(customerSchema, res.body)).toEqual([]);
    expect(res.body).toMatchObject({ type: 'contact', id: VISITOR, user_id: VISITOR_USER_ID, pseudonym: 'Green Otter from Nairobi' });
    expect((await m.call('GET', `/contacts/${VISITOR}`)).status).toBe(200);
    expect((await m.call('PUT', '/visitors', { body: { id: VISITOR } })).status).toBe(404);
  });

  it('merges the visitor into the existing user it names, removing the visitor', async () => {
    const m = mock();
    const res = await m.call('POST', '/visitors/convert', { body: { visitor: { id: VISITOR_2 }, user: { user_id: 'ada-1' }, type: 'user' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'user', id: ADA, user_id: 'ada-1', name: 'Ada Lovelace' });
    expect(res.body.custom_attributes).toMatchObject({ plan_tier: 'enterprise', newsletter: true });
    expect((await exported(m)).customers.some((c) => c.id === VISITOR_2)).toBe(false);
    expect((await m.call('PUT', '/visitors', { body: { id: VISITOR_2 } })).status).toBe(404);
  });

  it('lets the visitor fill what the user lacks', async () => {
    const m = mock();
    const res = await m.call('POST', '/visitors/convert', { body: { visitor: { id: VISITOR_2 }, user: { email: 'linus@example.com' }, type: 'user' } });
    expect(res.body).toMatchObject({ id: LINUS, pseudonym: null, custom_attributes: { newsletter: false } });
  });

  it('turns the visitor itself into the user when no user matches', async () => {
    const m = mock();
    const res = await m.call('POST', '/visitors/convert', { body: { visitor: { id: VISITOR }, user: { user_id: 'brand-new', email: 'Brand@New.example' }, type: 'user' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'user', id: VISITOR, user_id: 'brand-new', email: 'brand@new.example', anonymous: false, pseudonym: null });
    expect((await m.call('GET', '/users?user_id=brand-new')).body.id).toBe(VISITOR);
    expect((await m.call('GET', `/users?user_id=${VISITOR_USER_ID}`)).status).toBe(404);
  });

  it("answers 400 bad_request for a type other than lead or user", async () => {
    const m = mock();
    const res = await rejects(m, 'POST', '/visitors/convert', { visitor: { id: VISITOR }, type: 'admin' }, 400, ['bad_request']);
    expect(res.body.errors[0].message).toBe("bad 'type' parameter: use lead or user");
  });

  it('answers 400 parameter_not_found without a visitor, or without user for type user', async () => {
    const m = mock();
    await rejects(m, 'POST', '/visitors/convert', { type: 'lead' }, 400, ['parameter_not_found']);
    await rejects(m, 'POST', '/visitors/convert', { visitor: { id: VISITOR }, type: 'user' }, 400, ['parameter_not_found']);
    await rejects(m, 'POST', '/visitors/convert', { visitor: { id: VISITOR }, user: {}, type: 'user' }, 400, ['parameter_not_found']);
    await rejects(m, 'POST', '/visitors/convert', { visitor: { email: 'x@example.com' }, type: 'lead' }, 400, ['parameter_not_found']);
  });

  it('answers 404 not_found for an unknown visitor and for an unknown user id', async () => {
    const m = mock();
    await rejects(m, 'POST', '/visitors/convert', { visitor: { id: LEAD }, type: 'lead' }, 404, ['not_found']);
    await rejects(m, 'POST', '/visitors/convert', { visitor: { id: VISITOR }, user: { id: '0000000000000000000000ff' }, type: 'user' }, 404, ['not_found']);
  });

  it('answers 409 conflict when the user email matches several users', async () => {
    const m = mock();
    await rejects(m, 'POST', '/visitors/convert', { visitor: { id: VISITOR }, user: { email: 'shared@example.com' }, type: 'user' }, 409, ['conflict']);
  });
});
