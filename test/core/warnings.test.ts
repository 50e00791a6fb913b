// A request's warnings (core/warnings.ts) below the HTTP tests of test/http/warnings.test.ts: what
// is kept of each, what strict mode makes of them, and what the header shows once they are refused.

import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { isWarningCode, MAX_WARNINGS, readFlag, RequestWarnings, strictError } from '../../src/core/warnings.js';

const lenient = () => new RequestWarnings(false, new Set());
const strict = (muted: string[] = []) => new RequestWarnings(true, new Set(muted));

describe('a warning as kept', () => {
  it('cuts a message past 300 characters and a field past 100, and keeps no error it was not given', () => {
    const w = lenient();
    w.add('unused_field', 'm'.repeat(300), 'f'.repeat(100));
    w.add('unused_field', 'm'.repeat(301), 'f'.repeat(101), 'the error');
    w.add('unknown_parameter', 'no field');
    expect(w.list).toStrictEqual([
      { code: 'unused_field', message: 'm'.repeat(300), field: 'f'.repeat(100) },
      { code: 'unused_field', message: `${'m'.repeat(300)}…`, field: `${'f'.repeat(100)}…`, error: 'the error' },
      { code: 'unknown_parameter', message: 'no field' },
    ]);
  });

  it('says which list parameters a lookup does not read', () => {
    const w = lenient();
    w.unread({ tag_id: '1', per_page: undefined, segment_id: '2' }, ['tag_id', 'per_page', 'segment_id'], 'a lookup by user_id');
    expect(w.list).toStrictEqual([
      { code: 'unused_field', message: 'tag_id does not filter a lookup by user_id: ignored.', field: 'tag_id' },
      { code: 'unused_field', message: 'segment_id does not filter a lookup by user_id: ignored.', field: 'segment_id' },
    ]);
  });
});

describe('strictError', () => {
  it('is not_found for a path, parameter_not_found for a missing identifier, else parameter_invalid without "ignored"', () => {
    expect(strictError({ code: 'path_normalized', message: 'm' })).toStrictEqual({ code: 'not_found', message: 'The requested resource does not exist; check your path and try again' });
    expect(strictError({ code: 'missing_identifier', message: 'found by name', field: 'company_id', error: 'company_id is required' })).toStrictEqual({ code: 'parameter_not_found', message: 'company_id is required', field: 'company_id' });
    expect(strictError({ code: 'missing_identifier', message: 'found by name' })).toStrictEqual({ code: 'parameter_not_found', message: 'found by name' });
    expect(strictError({ code: 'unknown_parameter', message: 'foo is not read: ignored.' })).toStrictEqual({ code: 'parameter_invalid', message: 'foo is not read.' });
    expect(strictError({ code: 'coerced_value', message: 'm', field: 'age', error: 'age must be a number' })).toStrictEqual({ code: 'parameter_invalid', message: 'age must be a number', field: 'age' });
  });
});

describe('strict mode', () => {
  it('refuses the collected warnings together, a path that was not found alone', () => {
    const w = strict();
    w.add('unknown_parameter', 'a: ignored.', 'a');
    w.add('path_normalized', 'slashes');
    w.add('unused_field', 'b: ignored.', 'b');
    expect(w.refusals()).toStrictEqual([{ code: 'not_found', message: 'The requested resource does not exist; check your path and try again' }]);
    const v = strict();
    v.add('unknown_parameter', 'a: ignored.', 'a');
    v.add('unused_field', 'b: ignored.', 'b');
    expect(v.refusals().map((i) => i.field)).toEqual(['a', 'b']);
    expect(v.header()).toBeUndefined();
  });

  it('refuses nothing muted, and still shows what the header counts of it', () => {
    const w = strict(['unused_field']);
    for (let i = 0; i < MAX_WARNINGS + 5; i++) w.add('unused_field', `f${i}: ignored.`, `f${i}`);
    expect(w.refusals()).toEqual([]);
    expect(() => w.enforce()).not.toThrow();
    expect(w.header()).toBe('more "and 5 more"');
    expect(lenient().refusals()).toEqual([]);
  });

  it('throws each warning added once enforced, and the header then repeats none', () => {
    const w = strict();
    w.enforce();
    expect(() => w.add('coerced_value', 'age read as 3: ignored.', 'age')).toThrow(ApiError);
    expect(w.header()).toBeUndefined();
    // Muted warnings past the kept ones are counted in the header, until strict mode refuses a request.
    const muted = strict(['unused_field']);
    for (let i = 0; i < MAX_WARNINGS + 2; i++) muted.add('unused_field', `f${i}: ignored.`, `f${i}`);
    muted.enforce();
    expect(muted.header()).toBe('more "and 2 more"');
    expect(() => muted.add('coerced_value', 'age read as 3: ignored.', 'age')).toThrow(ApiError);
    expect(muted.header()).toBeUndefined();
    const l = lenient();
    l.enforce();
    l.add('coerced_value', 'age read as 3', 'age');
    expect(l.header()).toBe('coerced_value "age read as 3"');
  });

  it('says which codes it refuses: not muted ones, and none when lenient', () => {
    expect(strict(['coerced_value']).refuses('coerced_value')).toBe(false);
    expect(strict(['coerced_value']).refuses('unused_field')).toBe(true);
    expect(lenient().refuses('unused_field')).toBe(false);
  });
});

describe('flags and codes as text', () => {
  it('reads a strict-mode header as a query flag reads, around blanks; nothing sent is undefined', () => {
    expect(readFlag(' true ')).toBe(true);
    expect(readFlag('0')).toBe(false);
    expect(readFlag('yes')).toBeUndefined();
    expect(readFlag(null)).toBeUndefined();
    expect(readFlag(undefined)).toBeUndefined();
  });

  it('knows the catalogue\'s codes and nothing else, not even an object\'s own names', () => {
    expect(isWarningCode('unused_field')).toBe(true);
    expect(isWarningCode('toString')).toBe(false);
    expect(isWarningCode('constructor')).toBe(false);
    expect(isWarningCode(7)).toBe(false);
  });
});
