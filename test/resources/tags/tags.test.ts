import { describe, expect, it } from 'vitest';
import { tagListSchema, tagSchema } from '../../../src/schemas/common.js';
import type { Schema } from '../../../src/schemas/json-schema.js';
import { validate } from '../../../src/schemas/validate.js';
import { errorCodes, mock, type TestMock, stateText as state } from '../../helpers.js';
import { ACME, ADA, INITECH, LEAD, VISITOR } from '../../fixture-ids.js';


const shaped = (schema: Schema, body: unknown) => expect(validate(schema, body)).toEqual([]);
const tags = async (m: TestMock) => (await m.call('GET', '/tags')).body.tags as { id: string; name: string }[];
const customerTags = async (m: TestMock, id: string) => ((await m.call('GET', `/users/${id}`)).body.tags.tags as { name: string }[]).map((t) => t.name);
const exported = async (m: TestMock) => JSON.parse(await state(m));
const companyTagIds = async (m: TestMock, id: string) => ((await exported(m)).companies as { id: string; tags: string[] }[]).find((c) => c.id === id)?.tags;

describe('POST /tags', () => {
  it('creates a tag from a name and returns it with a new numeric id', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', { body: { name: 'Independent' } });
    expect(res.status).toBe(200);
    shaped(tagSchema, res.body);
    expect(res.body).toMatchObject({ type: 'tag', name: 'Independent' });
    expect(res.body.id).toMatch(/^\d+$/);
    expect((await tags(m)).map((t) => t.name)).toContain('Independent');
  });

  it('gives one tag for names that differ only in case, keeping the first spelling', async () => {
    const m = mock();
    const first = await m.call('POST', '/tags', { body: { name: 'MyTag' } });
    const second = await m.call('POST', '/tags', { body: { name: 'mytag' } });
    expect(second.body).toEqual(first.body);
    expect(second.body.name).toBe('MyTag');
    expect((await tags(m)).filter((t) => t.name.toLowerCase() === 'mytag')).toHaveLength(1);
  });

  it('finds a seeded tag by name instead of creating a second one', async () => {
    const m = mock();
    const before = await state(m);
    const res = await m.call('POST', '/tags', { body: { name: 'vip' } });
    expect(res.body).toEqual({ type: 'tag', id: '17513', name: 'VIP' });
    expect(await state(m)).toBe(before);
  });

  it('creates one tag when the same name is sent repeatedly', async () => {
    const m = mock();
    const count = (await tags(m)).length;
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) ids.add((await m.call('POST', '/tags', { body: { name: 'Repeat me' } })).body.id);
    expect(ids.size).toBe(1);
    expect(await tags(m)).toHaveLength(count + 1);
  });

  it('keeps inner whitespace and punctuation in a name, trimming only the surrounding whitespace', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', { body: { name: '  Q3 — "renewal"  / follow-up?! ' } });
    expect(res.body.name).toBe('Q3 — "renewal"  / follow-up?!');
  });

  it('renames a tag by id, and the new name shows on the records tagged with it', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', { body: { id: '17513', name: 'Very Important' } });
    expect(res.body).toEqual({ type: 'tag', id: '17513', name: 'Very Important' });
    expect(await customerTags(m, ADA)).toEqual(['Very Important']);
    expect((await m.call('POST', '/tags', { body: { name: 'vip' } })).body.id).not.toBe('17513');
  });

  it('accepts a numeric id when renaming', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', { body: { id: 17514, name: 'Churn' } });
    expect(res.body).toEqual({ type: 'tag', id: '17514', name: 'Churn' });
  });

  it('renames a tag to another spelling of its own name', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', { body: { id: '17513', name: 'vip' } });
    expect(res.body).toEqual({ type: 'tag', id: '17513', name: 'vip' });
    expect((await m.call('POST', '/tags', { body: { name: 'VIP' } })).body.id).toBe('17513');
  });

  it('answers 404 tag_not_found when renaming an unknown id, changing nothing', async () => {
    const m = mock();
    const before = await state(m);
    const res = await m.call('POST', '/tags', { body: { id: '999999', name: 'Ghost' } });
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual(['tag_not_found']);
    expect(await state(m)).toBe(before);
  });

  it('answers 409 conflict when renaming to a name another tag holds, changing nothing', async () => {
    const m = mock();
    const before = await state(m);
    const res = await m.call('POST', '/tags', { body: { id: '17514', name: 'vip' } });
    expect(res.status).toBe(409);
    expect(errorCodes(res)).toEqual(['conflict']);
    expect(res.body.errors[0].field).toBe('name');
    expect(await state(m)).toBe(before);
  });

  it.each([
    ['missing', {}],
    ['empty', { name: '' }],
    ['blank', { name: '   ' }],
    ['missing on a rename', { id: '17513' }],
  ])('answers 400 parameter_not_found when the name is %s', async (_label, body) => {
    const m = mock();
    const before = await state(m);
    const res = await m.call('POST', '/tags', { body });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_not_found']);
    expect(res.body.errors[0]).toMatchObject({ message: 'Name is a required parameter.', field: 'name' });
    expect(await state(m)).toBe(before);
  });

  it('reads a number as the name\'s text with a warning; strict mode answers 400 parameter_invalid', async () => {
    const m = mock();
    const lenient = await m.call('POST', '/tags', { body: { name: 42 } });
    expect(lenient.body).toMatchObject({ type: 'tag', name: '42' });
    expect(lenient.headers.get('x-mock-warning')).toMatch(/^coerced_value "name /);
    const res = await m.call('POST', '/tags', { body: { name: 43 }, ...{ headers: { 'x-mock-strict': 'true' } } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
  });
});

describe('POST /tags with users and companies', () => {
  it('tags users by id, user_id and email and a lead by id, creating the tag', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', {
      body: { name: 'Independent', users: [{ id: ADA }, { user_id: 'grace-2' }, { email: 'ALAN@example.com' }, { id: LEAD }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Independent');
    expect(await customerTags(m, ADA)).toEqual(['VIP', 'Independent']);
    expect(await customerTags(m, '5714dd359a3fd47136000002')).toEqual(['Beta tester', 'Independent']);
    expect(await customerTags(m, '5714dd359a3fd47136000003')).toEqual(['Independent']);
    expect(await customerTags(m, LEAD)).toEqual(['Churn risk', 'Independent']);
  });

  it('stamps updated_at on a record whose tags changed', async () => {
    const m = mock();
    m.clock.advance(100);
    await m.call('POST', '/tags', { body: { name: 'Fresh', users: [{ id: ADA }] } });
    expect((await m.call('GET', `/users/${ADA}`)).body.updated_at).toBe(m.clock.now());
  });

  it('untags a user with untag: true and leaves the tag itself in place', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ user_id: 'ada-1', untag: true }] } });
    expect(res.body.id).toBe('17513');
    expect(await customerTags(m, ADA)).toEqual([]);
    expect((await tags(m)).map((t) => t.id)).toContain('17513');
  });

  it('changes nothing when tagging a user who already has the tag', async () => {
    const m = mock();
    const before = await state(m);
    await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ id: ADA }] } });
    expect(await state(m)).toBe(before);
  });

  it('tags companies by id and company_id and untags them', async () => {
    const m = mock();
    await m.call('POST', '/tags', { body: { name: 'Churn risk', companies: [{ id: ACME }, { company_id: 'initech' }] } });
    expect(await companyTagIds(m, ACME)).toEqual(['17516', '17513', '17514']);
    expect(await companyTagIds(m, INITECH)).toEqual(['17514']);
    await m.call('POST', '/tags', { body: { name: 'churn RISK', companies: [{ company_id: 'initech', untag: true }] } });
    expect(await companyTagIds(m, INITECH)).toEqual([]);
  });

  it('renames and tags in one request', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', { body: { id: '17515', name: 'Beta', users: [{ id: ADA }] } });
    expect(res.body).toEqual({ type: 'tag', id: '17515', name: 'Beta' });
    expect(await customerTags(m, ADA)).toEqual(['VIP', 'Beta']);
  });

  it.each([
    ['a user id', { users: [{ id: ADA }, { id: '5714dd359a3fd471360fffff' }] }, 'not_found', 'users[1]'],
    ['a user_id', { users: [{ user_id: 'nobody' }] }, 'not_found', 'users[0]'],
    ['an email', { users: [{ email: 'nobody@example.com' }] }, 'not_found', 'users[0]'],
    ['a visitor', { users: [{ id: VISITOR }] }, 'not_found', 'users[0]'],
    ['a company id', { users: [{ id: ADA }], companies: [{ id: ACME }, { id: '5714dd359a3fd471360fffff' }] }, 'company_not_found', 'companies[1]'],
    ['a company_id', { companies: [{ company_id: 'umbrella' }] }, 'company_not_found', 'companies[0]'],
  ])('answers 404 when %s matches nobody, creating no tag and tagging no one', async (_label, extra, code, field) => {
    const m = mock();
    const before = await state(m);
    const res = await m.call('POST', '/tags', { body: { name: 'Brand new', ...extra } });
    expect(res.status).toBe(404);
    expect(errorCodes(res)).toEqual([code]);
    expect(res.body.errors[0].field).toBe(field);
    expect(await state(m)).toBe(before);
  });

  it('answers 409 conflict when an email matches two users, changing nothing', async () => {
    const m = mock();
    const before = await state(m);
    const res = await m.call('POST', '/tags', { body: { name: 'Shared', users: [{ email: 'shared@example.com' }] } });
    expect(res.status).toBe(409);
    expect(errorCodes(res)).toEqual(['conflict']);
    expect(await state(m)).toBe(before);
  });

  it('answers 400 parameter_not_found for an entry with no identifier, changing nothing', async () => {
    const m = mock();
    const before = await state(m);
    const res = await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ untag: true }] } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_not_found']);
    expect(res.body.errors[0].field).toBe('users[0]');
    expect(await state(m)).toBe(before);
  });

  it('answers 400 parameter_invalid when untag is not a boolean', async () => {
    const m = mock();
    const res = await m.call('POST', '/tags', { body: { name: 'VIP', users: [{ id: ADA, untag: 'yes' }] } });
    expect(res.status).toBe(400);
    expect(errorCodes(res)).toEqual(['parameter_invalid']);
    expect(res.body.errors[0].field).toBe('users[0].untag');
  });
});

describe('GET /tags', () => {
  it('lists every tag as a tag.list, new ones after the seeded ones', async () => {
    const m = mock();
    await m.call('POST', '/tags', { body: { name: 'Zeta' } });
    const res = await m.call('GET', '/tags');
    expect(res.status).toBe(200);
    shaped(tagListSchema, res.body);
    expect(res.body.tags.map((t: { name: string }) => t.name)).toEqual(['VIP', 'Churn risk', 'Beta tester', 'Enterprise', 'needs follow-up!', 'Zeta']);
  });

  it('goes back to the seeded tags after a reset', async () => {
    const m = mock();
    await m.call('POST', '/tags', { body: { name: 'Temporary' } });
    await m.call('POST', '/__admin/reset?app=demo');
    expect(await tags(m)).toHaveLength(5);
  });
});
