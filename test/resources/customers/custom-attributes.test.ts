import { describe, expect, it } from 'vitest';
import { MAX_FIELDS, mergeCustomAttributes } from '../../../src/resources/customers/custom-attributes.js';

const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, i]));
const fieldsOf = (r: ReturnType<typeof mergeCustomAttributes>) => r.problems.map((p) => p.field);

describe('mergeCustomAttributes', () => {
  it('lays the incoming values over the current ones without changing the current object', () => {
    const current = Object.freeze({ a: 1, b: 'x' });
    const r = mergeCustomAttributes(current, { b: 'y', c: null });
    expect(r).toEqual({ value: { a: 1, b: 'y', c: null }, problems: [] });
    expect(current).toEqual({ a: 1, b: 'x' });
  });

  it('refuses more names than a record may hold as a whole, before checking any name', () => {
    const r = mergeCustomAttributes({}, { ...fields(MAX_FIELDS), 'a.b': 1 });
    expect(fieldsOf(r)).toEqual(['custom_attributes']);
  });

  it('returns the current attributes when nothing is sent', () => {
    const current = { a: 1 };
    expect(mergeCustomAttributes(current, undefined).value).toBe(current);
  });

  it.each([
    ['n'.repeat(190), 'ok', true],
    ['n'.repeat(191), 'ok', false],
    ['s', 's'.repeat(255), true],
    ['s', 's'.repeat(256), false],
    ['a.b', 1, false],
    ['a$b', 1, false],
    ['', 1, false],
    ['d_at', 1_700_000_000, true],
    ['d_at', null, true],
    ['d_at', 1.25, false],
    ['d_at', '1700000000', false],
    ['d_at', true, false],
    ['x', 1.25, true],
    ['x', false, true],
    ['x', {}, false],
    ['x', [], false],
  ])('judges %s = %j: accepted %s', (name, value, ok) => {
    const r = mergeCustomAttributes({}, { [name]: value });
    expect(r.problems).toHaveLength(ok ? 0 : 1);
    if (!ok) expect(r.problems[0]).toMatchObject({ code: 'parameter_invalid', field: `custom_attributes.${name}` });
  });

  it('allows exactly MAX_FIELDS fields, counting current and incoming together', () => {
    expect(MAX_FIELDS).toBe(250);
    expect(mergeCustomAttributes({}, fields(250)).problems).toEqual([]);
    expect(fieldsOf(mergeCustomAttributes({}, fields(251)))).toEqual(['custom_attributes']);
    expect(fieldsOf(mergeCustomAttributes(fields(250), { extra: 1 }))).toEqual(['custom_attributes']);
    expect(mergeCustomAttributes(fields(250), { f0: 'replaced' }).problems).toEqual([]);
  });

  it('prefixes fields with the given member path', () => {
    expect(fieldsOf(mergeCustomAttributes({}, { 'a.b': 1 }, 'companies[2].custom_attributes'))).toEqual(['companies[2].custom_attributes.a.b']);
  });

  it('keeps __proto__, constructor and prototype as own data, never touching a prototype', () => {
    const incoming = JSON.parse('{"__proto__":{"polluted":"yes"},"constructor":"c","prototype":"p"}');
    const bad = mergeCustomAttributes({}, incoming);
    expect(fieldsOf(bad)).toEqual(['custom_attributes.__proto__']);
    const r = mergeCustomAttributes({}, JSON.parse('{"__proto__":"x","constructor":"c","prototype":"p"}'));
    expect(r.problems).toEqual([]);
    expect(Object.hasOwn(r.value, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(r.value.constructor).toBe('c');
    expect(({} as any).polluted).toBeUndefined();
    const again = mergeCustomAttributes(r.value, { other: 1 });
    expect(Object.hasOwn(again.value, '__proto__')).toBe(true);
    expect(({} as any).polluted).toBeUndefined();
  });
});
