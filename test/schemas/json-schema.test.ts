// The schema builders: the JSON each writes is what ajv and the document read, and the type each
// carries is what the compiler checks handlers, rules and views against.

import { describe, expect, expectTypeOf, it } from 'vitest';
import { constant, int, obj, objAll, str, type StaticOf } from '../../src/schemas/json-schema.js';

describe('objAll', () => {
  it('writes the closed object obj writes with every member required, in the members\' order', () => {
    const members = { type: constant('tag.usage'), id: str(), users: int() };
    expect(objAll(members)).toEqual(obj(members, ['type', 'id', 'users']));
    expect(objAll(members, { description: 'a count' })).toEqual({ ...obj(members, ['type', 'id', 'users']), description: 'a count' });
    expect(JSON.stringify(objAll(members))).toBe(JSON.stringify(obj(members, ['type', 'id', 'users'])));
  });

  it('types every member as present', () => {
    const schema = objAll({ type: constant('tag.usage'), users: int() });
    expectTypeOf<StaticOf<typeof schema>>().toEqualTypeOf<{ type: 'tag.usage'; users: number }>();
    expect(schema.required).toEqual(['type', 'users']);
  });
});
