// POST /customers/search, served under Intercom-Version: Unstable only (Ruby 3.8+, PHP 4.x).

import { describe, expect, it } from 'vitest';
import { ADA, LEAD } from '../../fixture-ids.js';
import { expectRejected, mock, type TestMock } from '../../helpers.js';

const UNSTABLE = { 'intercom-version': 'Unstable' };
const search = (m: TestMock, body: unknown) => m.call('POST', '/customers/search', { body, headers: UNSTABLE });
const idsOf = (res: { body: { customers: { id: string }[] } }) => res.body.customers.map((c) => c.id);

/** Five users of group g (names e, d, c, b, a: created in that order) and one lead in it. */
async function group(m: TestMock): Promise<{ users: string[]; lead: string }> {
  const users: string[] = [];
  for (const [i, name] of ['Eve Search', 'Dan Search', 'Cy Search', 'Bo Search', 'Al Search'].entries()) {
    m.clock.advance(1);
    const res = await m.call('POST', '/users', { body: { user_id: `s-${i}`, name, email: `s${i}@search.example`, custom_attributes: { grp: 'g', rank: i }, last_request_at: i === 2 ? undefined : 1_700_000_000 + i } });
    expect(res.status, res.text).toBe(200);
    users.push(res.body.id);
  }
  const lead = await m.call('POST', '/contacts', { body: { name: 'Lee Search', email: 'lee@search.example', custom_attributes: { grp: 'g' } } });
  expect(lead.status).toBe(200);
  return { users, lead: lead.body.id };
}

const inGroup = (filter: unknown) => ({ query: { operator: 'AND', value: [{ field: 'custom_attributes.grp', operator: '=', value: 'g' }, filter] } });

describe('POST /customers/search', () => {
  it.each(['1.0', '1.1', '1.4'])('is not in %s: 400 intercom_version_invalid', async (version) => {
    await expectRejected(mock(), 'POST', '/customers/search', { body: { query: { field: 'name', operator: '=', value: 'x' } }, headers: { 'intercom-version': version } }, 400, ['intercom_version_invalid']);
  });

  it('answers a customer.list of the users and leads matched, with a cursor-less last page', async () => {
    const m = mock();
    const res = await search(m, { query: { field: 'email', operator: '=', value: 'ada@example.com' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ type: 'customer.list', total_count: 1, pages: { type: 'pages', page: 1, per_page: 50, total_pages: 1, next: null } });
    expect(idsOf(res)).toEqual([ADA]);
    // The view is the user's own view in 1.4's shape (owner_id shown).
    const user = await m.call('GET', `/users/${ADA}`, { headers: { 'intercom-version': '1.4' } });
    expect(res.body.customers[0]).toEqual(user.body);
  });

  it('finds leads too, and role tells them apart', async () => {
    const m = mock();
    const { users, lead } = await group(m);
    expect(idsOf(await search(m, inGroup({ field: 'role', operator: '=', value: 'lead' })))).toEqual([lead]);
    expect(idsOf(await search(m, inGroup({ field: 'role', operator: '=', value: 'user' })))).toEqual(users);
    expect(idsOf(await search(m, { query: { field: 'id', operator: '=', value: LEAD } }))).toEqual([LEAD]);
  });

  it.each([
    ['=', 'name', 'Cy Search', [2]],
    ['!=', 'name', 'Cy Search', [0, 1, 3, 4]],
    ['IN', 'user_id', ['s-0', 's-4', 'nobody'], [0, 4]],
    ['NIN', 'user_id', ['s-0', 's-4'], [1, 2, 3]],
    ['<', 'custom_attributes.rank', 2, [0, 1]],
    ['>', 'custom_attributes.rank', 2, [3, 4]],
    ['~', 'email', 'S3@', [3]],
    ['!~', 'name', 'o', [0, 1, 2, 4]],
    ['^', 'name', 'b', [3]],
    ['$', 'email', '4@SEARCH.example', [4]],
    ['=', 'last_request_at', null, [2]],
    ['=', 'custom_attributes.rank', '3', [3]],
  ])('%s on %s', async (operator, field, value, expected) => {
    const m = mock();
    const { users } = await group(m);
    const res = await search(m, inGroup({ operator: 'AND', value: [{ field: 'role', operator: '=', value: 'user' }, { field, operator, value }] }));
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res)).toEqual((expected as number[]).map((i) => users[i]));
  });

  it('OR groups, and a list field matches when one of its values does (!= when none does)', async () => {
    const m = mock();
    const { users } = await group(m);
    const tag = await m.call('POST', '/tags', { body: { name: 'searched', users: [{ id: users[1] }, { id: users[3] }] } });
    expect(tag.status).toBe(200);
    const either = await search(m, inGroup({ operator: 'OR', value: [{ field: 'name', operator: '=', value: 'Eve Search' }, { field: 'tag_id', operator: '=', value: tag.body.id }] }));
    expect(idsOf(either)).toEqual([users[0], users[1], users[3]]);
    const untagged = await search(m, inGroup({ operator: 'AND', value: [{ field: 'role', operator: '=', value: 'user' }, { field: 'tag_id', operator: '!=', value: tag.body.id }] }));
    expect(idsOf(untagged)).toEqual([users[0], users[2], users[4]]);
  });

  it('sorts by a field, either way, nulls last; pages by the cursor until next is null', async () => {
    const m = mock();
    const { users } = await group(m);
    const byName = await search(m, { ...inGroup({ field: 'role', operator: '=', value: 'user' }), sort: { field: 'name', order: 'ascending' } });
    expect(idsOf(byName)).toEqual([...users].reverse());
    const byLastRequest = await search(m, { ...inGroup({ field: 'role', operator: '=', value: 'user' }), sort: { field: 'last_request_at', order: 'descending' } });
    expect(idsOf(byLastRequest)).toEqual([users[4], users[3], users[1], users[0], users[2]]);

    const body = { ...inGroup({ field: 'role', operator: '=', value: 'user' }), pagination: { per_page: 2 } };
    const first = await search(m, body);
    expect(first.body.pages).toEqual({ type: 'pages', page: 1, per_page: 2, total_pages: 3, next: { page: 2, starting_after: expect.any(String) } });
    expect(idsOf(first)).toEqual(users.slice(0, 2));
    const second = await search(m, { ...body, pagination: { per_page: 2, starting_after: first.body.pages.next.starting_after } });
    expect(second.body.pages).toMatchObject({ page: 2, next: { page: 3 } });
    expect(idsOf(second)).toEqual(users.slice(2, 4));
    const last = await search(m, { ...body, pagination: { per_page: 2, starting_after: second.body.pages.next.starting_after } });
    expect(last.body.pages).toMatchObject({ page: 3, next: null });
    expect(idsOf(last)).toEqual(users.slice(4));
    expect(last.body.total_count).toBe(5);
  });

  it.each([
    ['no query', {}, 'parameter_not_found', ['query']],
    ['an unknown field', { query: { field: 'shoe_size', operator: '=', value: 1 } }, 'parameter_invalid', ['query.field']],
    ['an unknown operator', { query: { field: 'name', operator: 'LIKE', value: 'x' } }, 'parameter_invalid', ['query.operator']],
    ['IN without an array', { query: { field: 'name', operator: 'IN', value: 'x' } }, 'parameter_invalid', ['query.value']],
    ['< without a number', { query: { field: 'session_count', operator: '<', value: '3' } }, 'parameter_invalid', ['query.value']],
    ['an empty group', { query: { operator: 'AND', value: [] } }, 'parameter_invalid', ['query.value']],
    ['a group of 16', { query: { operator: 'OR', value: Array(16).fill({ field: 'name', operator: '=', value: 'x' }) } }, 'parameter_invalid', ['query.value']],
    ['groups nested 3 deep', { query: { operator: 'AND', value: [{ operator: 'OR', value: [{ operator: 'AND', value: [{ field: 'name', operator: '=', value: 'x' }] }] }] } }, 'parameter_invalid', ['query.value[0].value[0]']],
    ['a cursor it never gave', { query: { field: 'name', operator: '=', value: 'x' }, pagination: { starting_after: 'EnCrYpTeDsTrInG' } }, 'parameter_invalid', ['pagination.starting_after']],
    ['a sort by an unknown field', { query: { field: 'name', operator: '=', value: 'x' }, sort: { field: 'shoe_size' } }, 'parameter_invalid', ['sort.field']],
  ])('refuses %s with 400, naming the member', async (_what, body, code, fields) => {
    const res = await expectRejected(mock(), 'POST', '/customers/search', { body, headers: UNSTABLE }, 400, fields.map(() => code));
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
  });

  it('names every problem of a query at once', async () => {
    const body = { query: { operator: 'OR', value: [{ field: 'shoe_size', operator: '=', value: 1 }, { field: 'name', operator: '>', value: 'x' }] } };
    const res = await expectRejected(mock(), 'POST', '/customers/search', { body, headers: UNSTABLE }, 400, ['parameter_invalid', 'parameter_invalid']);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['query.value[0].field', 'query.value[1].value']);
  });

  it('is listed in the document for Unstable only', async () => {
    const doc = (await mock().call('GET', '/openapi.json', { token: null })).body;
    expect(doc.paths['/customers/search'].post['x-api-versions']).toEqual(['Unstable']);
    expect(doc.paths['/users'].get['x-api-versions']).toEqual(['1.0', '1.1', '1.2', '1.3', '1.4', 'Unstable']);
  });
});

describe('POST /customers/search: every rule of the query', () => {
  const q = (query: unknown, extra: Record<string, unknown> = {}) => ({ query, ...extra });
  const refused = async (body: unknown, items: [string, string][]) => {
    const res = await expectRejected(mock(), 'POST', '/customers/search', { body, headers: UNSTABLE }, 400, items.map(([code]) => code));
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(items.map(([, field]) => field));
    return res;
  };

  it.each([
    ['a query that is a list', ['x'], [['parameter_invalid', 'query']]],
    ['a query that is text', 'name=x', [['parameter_invalid', 'query']]],
    ['a filter without field', { operator: '=', value: 'x' }, [['parameter_not_found', 'query.field']]],
    ['a field that is not text', { field: 7, operator: '=', value: 'x' }, [['parameter_invalid', 'query.field']]],
    ['custom_attributes with no name', { field: 'custom_attributes.', operator: '=', value: 'x' }, [['parameter_invalid', 'query.field']]],
    ['a location field the view has not', { field: 'location_data.latitude', operator: '=', value: 1 }, [['parameter_invalid', 'query.field']]],
    ['a filter without value', { field: 'name', operator: '=' }, [['parameter_not_found', 'query.value']]],
    ['= with an object', { field: 'name', operator: '=', value: { a: 1 } }, [['parameter_invalid', 'query.value']]],
    ['IN with an object inside', { field: 'name', operator: 'IN', value: ['a', { b: 1 }] }, [['parameter_invalid', 'query.value']]],
    ['~ with a number', { field: 'name', operator: '~', value: 5 }, [['parameter_invalid', 'query.value']]],
    ['a filter without operator', { field: 'name', value: 'x' }, [['parameter_not_found', 'query.operator']]],
    ['an operator that is not text', { field: 'name', operator: 1, value: 'x' }, [['parameter_invalid', 'query.operator']]],
    ['a bad field and a bad value together', { field: 'nope', operator: '<', value: 'x' }, [['parameter_invalid', 'query.field'], ['parameter_invalid', 'query.value']]],
    ['a group whose value is not a list', { operator: 'AND', value: { field: 'name' } }, [['parameter_invalid', 'query.value']]],
    ['a group holding text', { operator: 'OR', value: ['name'] }, [['parameter_invalid', 'query.value[0]']]],
    ['a group holding a list', { operator: 'OR', value: [['name']] }, [['parameter_invalid', 'query.value[0]']]],
    ['a group holding null', { operator: 'AND', value: [null] }, [['parameter_invalid', 'query.value[0]']]],
    ['a dotted field that names no group of fields', { field: 'address.city_name', operator: '=', value: 'x' }, [['parameter_invalid', 'query.field']]],
  ])('refuses %s, naming it', async (_what, query, items) => {
    await refused(q(query), items as [string, string][]);
  });

  it.each([
    ['IN', 'x', 'IN needs an array of values.'],
    ['NIN', 'x', 'NIN needs an array of values.'],
    ['NIN', [['x']], 'NIN needs an array of values.'],
    ['<', '3', '< needs a number.'],
    ['>', null, '> needs a number.'],
    ['~', 5, '~ needs a string.'],
    ['!~', 5, '!~ needs a string.'],
    ['^', true, '^ needs a string.'],
    ['$', null, '$ needs a string.'],
    ['=', { a: 1 }, '= needs a string, number, boolean or null.'],
    ['!=', ['x'], '!= needs a string, number, boolean or null.'],
  ])('refuses %s with the value %j, saying what it needs', async (operator, value, message) => {
    const res = await refused(q({ field: 'name', operator, value }), [['parameter_invalid', 'query.value']]);
    expect(res.body.errors[0].message).toBe(message);
  });

  it('refuses cursors it did not give: text that only looks like one, and a number', async () => {
    const looks = Buffer.from('offset:5x').toString('base64url');
    const padded = Buffer.from('xoffset:5').toString('base64url');
    for (const cursor of [looks, padded, `${Buffer.from('offset:5').toString('base64url')}=`]) await refused(q({ field: 'name', operator: '=', value: 'x' }, { pagination: { starting_after: cursor } }), [['parameter_invalid', 'pagination.starting_after']]);
    await refused(q({ field: 'name', operator: '=', value: 'x' }, { pagination: { starting_after: 5 } }), [['parameter_invalid', 'pagination.starting_after']]);
  });

  it('compares with null only by null, and < > only numbers: the text "null" and no value stay apart', async () => {
    const m = mock();
    const { users } = await group(m);
    const named = (await m.call('POST', '/users', { body: { user_id: 'named-null', name: 'null', custom_attributes: { grp: 'g' } } })).body.id as string;
    expect(idsOf(await search(m, inGroup({ field: 'name', operator: '=', value: null })))).toEqual([]);
    expect(idsOf(await search(m, inGroup({ field: 'name', operator: '=', value: 'null' })))).toEqual([named]);
    // users[2] has no last_request_at: no comparison takes it for 0.
    expect(idsOf(await search(m, inGroup({ field: 'last_request_at', operator: '<', value: 2_000_000_000 })))).toEqual([users[0], users[1], users[3], users[4]]);
  });

  it('sorts numbers and text apart, nulls last either way and in creation order among themselves', async () => {
    const m = mock();
    const made: string[] = [];
    for (const [i, key] of [3, null, 'b', 1, null, 'a', 10].entries()) {
      m.clock.advance(1);
      const res = await m.call('POST', '/users', { body: { user_id: `mixed-sort-${i}`, custom_attributes: { grp: 'mixed-sort', ...(key === null ? {} : { key }) } } });
      made.push(res.body.id);
    }
    const sorted = async (order: string) => idsOf(await search(m, { query: { field: 'custom_attributes.grp', operator: '=', value: 'mixed-sort' }, sort: { field: 'custom_attributes.key', order } }));
    // Numbers by value; a number and a text by their text ("10" < "3" < "a" as text, 1 < 3 < 10 as numbers).
    const [three, none1, b, one, none2, a, ten] = made;
    expect(await sorted('ascending')).toEqual([one, three, ten, a, b, none1, none2]);
    expect(await sorted('descending')).toEqual([b, a, ten, three, one, none1, none2]);
  });

  it('follows its cursors past ten: offsets of two digits and more', async () => {
    const m = mock();
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      m.clock.advance(1);
      made.push((await m.call('POST', '/users', { body: { user_id: `cursor-${i}`, custom_attributes: { grp: 'cursor' } } })).body.id);
    }
    const body = { query: { field: 'custom_attributes.grp', operator: '=', value: 'cursor' }, pagination: { per_page: 5 } };
    const seen: string[] = [];
    let after: string | undefined;
    for (const page of [1, 2, 3]) {
      const res = await search(m, { ...body, pagination: { per_page: 5, ...(after ? { starting_after: after } : {}) } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.pages.page).toBe(page);
      seen.push(...idsOf(res));
      after = res.body.pages.next?.starting_after;
    }
    expect(after).toBeUndefined();
    expect(seen).toEqual(made);
  });

  it('reads a custom attribute by its whole name: a dotted one, which no customer can hold, is null', async () => {
    const m = mock();
    const joined = (await m.call('POST', '/users', { body: { user_id: 'dotted', custom_attributes: { ab: 'joined' } } })).body;
    expect(idsOf(await search(m, q({ field: 'custom_attributes.ab', operator: '=', value: 'joined' })))).toEqual([joined.id]);
    expect(idsOf(await search(m, q({ field: 'custom_attributes.a.b', operator: '=', value: 'joined' })))).toEqual([]);
    expect(idsOf(await search(m, q({ operator: 'AND', value: [{ field: 'custom_attributes.a.b', operator: '=', value: null }, { field: 'user_id', operator: '=', value: 'dotted' }] })))).toEqual([joined.id]);
  });

  it('takes a group of 15 and groups nested 2 deep; null as no cursor', async () => {
    const m = mock();
    const fifteen = { operator: 'OR', value: Array.from({ length: 15 }, (_, i) => ({ field: 'user_id', operator: '=', value: i === 14 ? 'ada-1' : `none-${i}` })) };
    expect(idsOf(await search(m, q(fifteen)))).toEqual([ADA]);
    const nested = { operator: 'AND', value: [{ operator: 'OR', value: [{ field: 'user_id', operator: '=', value: 'ada-1' }] }] };
    expect(idsOf(await search(m, q(nested, { pagination: { starting_after: null } })))).toEqual([ADA]);
  });

  it('reads custom attributes (absent: null), location data, and compares null only with null', async () => {
    const m = mock();
    const { users } = await group(m);
    expect(idsOf(await search(m, inGroup({ operator: 'AND', value: [{ field: 'role', operator: '=', value: 'user' }, { field: 'custom_attributes.missing', operator: '=', value: null }] })))).toEqual(users);
    expect(idsOf(await search(m, inGroup({ field: 'custom_attributes.missing', operator: '!=', value: null })))).toEqual([]);
    expect(idsOf(await search(m, inGroup({ field: 'last_request_at', operator: '!=', value: null })))).toEqual([users[0], users[1], users[3], users[4]]);
    expect(idsOf(await search(m, inGroup({ field: 'last_request_at', operator: '=', value: 'null' })))).toEqual([]);
    const located = await m.call('POST', '/users', { body: { user_id: 'located', last_seen_ip: '81.2.69.142' } });
    expect((await m.call('POST', '/__admin/jobs/run?app=demo', { token: null })).status).toBe(200);
    const city = (await m.call('GET', `/users/${located.body.id}`)).body.location_data.city_name as string;
    expect(typeof city).toBe('string');
    expect(idsOf(await search(m, q({ operator: 'AND', value: [{ field: 'location_data.city_name', operator: '=', value: city }, { field: 'user_id', operator: '=', value: 'located' }] })))).toEqual([located.body.id]);
  });

  it('text operators on no value: ~ ^ $ never match it, !~ always does; < and > match numbers only', async () => {
    const m = mock();
    const { users, lead } = await group(m);
    const everyone = [...users, lead];
    for (const op of ['~', '^', '$']) expect(idsOf(await search(m, inGroup({ field: 'phone', operator: op, value: '' })))).toEqual([]);
    expect(idsOf(await search(m, inGroup({ field: 'phone', operator: '!~', value: 'x' })))).toEqual(everyone);
    expect(idsOf(await search(m, inGroup({ field: 'name', operator: '>', value: 0 })))).toEqual([]);
    expect(idsOf(await search(m, inGroup({ field: 'name', operator: '<', value: 0 })))).toEqual([]);
    expect(idsOf(await search(m, inGroup({ field: 'custom_attributes.rank', operator: '>', value: -1 })))).toEqual(users);
  });

  it('sorts by a list field by its first value and by text; equal keys keep creation order, then id', async () => {
    const m = mock();
    const { users, lead } = await group(m);
    const everyone = [...users, lead];
    const byGroup = await search(m, { ...inGroup({ field: 'role', operator: '!=', value: 'x' }), sort: { field: 'custom_attributes.grp', order: 'descending' } });
    expect(idsOf(byGroup)).toEqual(everyone);
    const byRank = await search(m, { ...inGroup({ field: 'role', operator: '=', value: 'user' }), sort: { field: 'custom_attributes.rank', order: 'descending' } });
    expect(idsOf(byRank)).toEqual([...users].reverse());
    const byRankNullsLast = await search(m, { ...inGroup({ field: 'role', operator: '!=', value: 'x' }), sort: { field: 'custom_attributes.rank' } });
    expect(idsOf(byRankNullsLast)).toEqual(everyone);
    const tag = await m.call('POST', '/tags', { body: { name: 'zz-sort', users: [{ id: users[0] }] } });
    expect(tag.status).toBe(200);
    const byTag = await search(m, { ...inGroup({ field: 'role', operator: '=', value: 'user' }), sort: { field: 'tag_id', order: 'ascending' } });
    expect(idsOf(byTag)).toEqual([users[0], ...users.slice(1)]);
    const byTagDown = await search(m, { ...inGroup({ field: 'role', operator: '=', value: 'user' }), sort: { field: 'tag_id', order: 'descending' } });
    expect(idsOf(byTagDown)).toEqual([users[0], ...users.slice(1)]);
  });

  it('a last page exactly full has no next; two records of one second list by id', async () => {
    const m = mock();
    const made: string[] = [];
    for (const id of ['same-b', 'same-a']) made.push((await m.call('POST', '/users', { body: { user_id: id, custom_attributes: { grp: 'same' } } })).body.id);
    const res = await search(m, { query: { field: 'custom_attributes.grp', operator: '=', value: 'same' }, pagination: { per_page: 2 } });
    expect(res.body.pages).toEqual({ type: 'pages', page: 1, per_page: 2, total_pages: 1, next: null });
    expect(idsOf(res)).toEqual([...made].sort());
  });

  it('lists users and leads together oldest first, whichever type came first; numbers sort as numbers', async () => {
    const m = mock();
    m.clock.advance(1);
    const lead = (await m.call('POST', '/contacts', { body: { email: 'first@mixed.example', custom_attributes: { mix: 'm', n: 10 } } })).body.id as string;
    m.clock.advance(1);
    const user = (await m.call('POST', '/users', { body: { user_id: 'mixed-2', custom_attributes: { mix: 'm', n: 9 } } })).body.id as string;
    m.clock.advance(1);
    const third = (await m.call('POST', '/users', { body: { user_id: 'mixed-3', custom_attributes: { mix: 'm' } } })).body.id as string;
    const mixed = { query: { field: 'custom_attributes.mix', operator: '=', value: 'm' } };
    expect(idsOf(await search(m, mixed))).toEqual([lead, user, third]);
    expect(idsOf(await search(m, { ...mixed, sort: { field: 'custom_attributes.n', order: 'ascending' } }))).toEqual([user, lead, third]);
    expect(idsOf(await search(m, { ...mixed, sort: { field: 'custom_attributes.n', order: 'descending' } }))).toEqual([lead, user, third]);
    expect(idsOf(await search(m, { ...mixed, sort: { field: 'email', order: 'descending' } }))).toEqual([lead, user, third]);
  });
});
