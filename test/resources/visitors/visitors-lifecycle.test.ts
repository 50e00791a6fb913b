// Visitors read by id and user_id, deleted, and updated by every form clients send.

import { describe, expect, it } from 'vitest';
import { ADA, LEAD, VISITOR, VISITOR_2, VISITOR_USER_ID } from '../../fixture-ids.js';
import { expectRejected, mock } from '../../helpers.js';

describe('GET /visitors/{id}, GET /visitors?user_id=', () => {
  it('answers the full visitor by id and by user_id', async () => {
    const m = mock();
    const byId = await m.call('GET', `/visitors/${VISITOR}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ type: 'visitor', id: VISITOR, user_id: VISITOR_USER_ID, anonymous: true });
    const byUserId = await m.call('GET', `/visitors?user_id=${VISITOR_USER_ID}`);
    expect(byUserId.body).toEqual(byId.body);
  });

  it('answers 404 "Visitor Not Found" for an unknown id or user_id, a lead or a user; 400 without user_id', async () => {
    const m = mock();
    const res = await expectRejected(m, 'GET', '/visitors/nope', {}, 404, ['not_found']);
    expect(res.body.errors[0].message).toBe('Visitor Not Found');
    await expectRejected(m, 'GET', `/visitors/${LEAD}`, {}, 404, ['not_found']);
    await expectRejected(m, 'GET', `/visitors/${ADA}`, {}, 404, ['not_found']);
    await expectRejected(m, 'GET', '/visitors?user_id=ada-1', {}, 404, ['not_found']);
    await expectRejected(m, 'GET', '/visitors', {}, 400, ['parameter_not_found']);
  });
});

describe('DELETE /visitors/{id}', () => {
  it('answers the visitor as it was; it is gone from every read and a later convert is a 404', async () => {
    const m = mock();
    const before = (await m.call('GET', `/visitors/${VISITOR}`)).body;
    const res = await m.call('DELETE', `/visitors/${VISITOR}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
    await expectRejected(m, 'GET', `/visitors/${VISITOR}`, {}, 404, ['not_found']);
    await expectRejected(m, 'GET', `/visitors?user_id=${VISITOR_USER_ID}`, {}, 404, ['not_found']);
    await expectRejected(m, 'POST', '/visitors/convert', { body: { visitor: { id: VISITOR }, type: 'lead' } }, 404, ['not_found']);
    await expectRejected(m, 'PUT', '/visitors', { body: { user_id: VISITOR_USER_ID, name: 'x' } }, 404, ['not_found']);
    await expectRejected(m, 'DELETE', `/visitors/${VISITOR}`, {}, 404, ['not_found']);
  });

  it('answers 404 for a lead or a user, changing nothing', async () => {
    const m = mock();
    await expectRejected(m, 'DELETE', `/visitors/${LEAD}`, {}, 404, ['not_found']);
    await expectRejected(m, 'DELETE', `/visitors/${ADA}`, {}, 404, ['not_found']);
  });
});

describe('visitor updates: PUT /visitors/{id}, PUT /visitors, POST /visitors', () => {
  it('all three update the same visitor', async () => {
    const m = mock();
    expect((await m.call('PUT', `/visitors/${VISITOR}`, { body: { name: 'By path' } })).body).toMatchObject({ type: 'visitor', id: VISITOR, name: 'By path' });
    expect((await m.call('PUT', '/visitors', { body: { id: VISITOR, name: 'By PUT' } })).body.name).toBe('By PUT');
    expect((await m.call('POST', '/visitors', { body: { user_id: VISITOR_USER_ID, name: 'By POST' } })).body.name).toBe('By POST');
    expect((await m.call('GET', `/visitors/${VISITOR}`)).body.name).toBe('By POST');
  });

  it('PUT /visitors/{id}: an id echoed in the body must be the path\'s (the echo rule); an email makes it a lead', async () => {
    const m = mock();
    const contradicted = await expectRejected(m, 'PUT', `/visitors/${VISITOR}`, { body: { id: VISITOR_2, name: 'Path wins' } }, 400, ['parameter_invalid']);
    expect(contradicted.body.errors[0].field).toBe('id');
    const res = await m.call('PUT', `/visitors/${VISITOR}`, { body: { id: VISITOR, name: 'Echoed' } });
    expect(res.body).toMatchObject({ id: VISITOR, name: 'Echoed' });
    expect((await m.call('GET', `/visitors/${VISITOR_2}`)).body.name).toBeNull();
    const lead = await m.call('PUT', `/visitors/${VISITOR}`, { body: { email: 'v@example.com' } });
    expect(lead.body).toMatchObject({ type: 'contact', id: VISITOR, email: 'v@example.com' });
    expect((await m.call('GET', `/contacts/${VISITOR}`)).status).toBe(200);
    await expectRejected(m, 'GET', `/visitors/${VISITOR}`, {}, 404, ['not_found']);
  });

  it('PUT /visitors/{id} answers 404 for an unknown visitor and 400 for a bad value, changing nothing', async () => {
    const m = mock();
    await expectRejected(m, 'PUT', '/visitors/nope', { body: { name: 'x' } }, 404, ['not_found']);
    await expectRejected(m, 'PUT', `/visitors/${VISITOR}`, { body: { new_session: true } }, 400, ['parameter_invalid']);
  });
});

describe('POST /visitors/convert to a user_id another customer holds', () => {
  it('answers 400 unique_user_constraint "User already exists." naming user.user_id, changing nothing', async () => {
    const m = mock();
    const res = await expectRejected(m, 'POST', '/visitors/convert', { body: { visitor: { id: VISITOR }, user: { id: ADA, user_id: 'grace-2' }, type: 'user' } }, 400, ['unique_user_constraint']);
    expect(res.body.errors[0]).toEqual({ code: 'unique_user_constraint', message: 'User already exists.', field: 'user.user_id' });
  });
});
