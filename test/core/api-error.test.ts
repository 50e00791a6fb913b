// What an ApiError says of itself where it is logged rather than answered.

import { describe, expect, it } from 'vitest';
import { apiError, ApiError, badChoice } from '../../src/core/errors.js';

describe('ApiError', () => {
  it('names itself and its first message when printed', () => {
    expect(String(apiError('not_found', 'User Not Found'))).toBe('ApiError: User Not Found');
  });
});

describe('the error items', () => {
  it('carry a field only when one is named', () => {
    expect(apiError('not_found', 'User Not Found').errors).toStrictEqual([{ code: 'not_found', message: 'User Not Found' }]);
    expect(apiError('parameter_invalid', 'bad', 'email').errors).toStrictEqual([{ code: 'parameter_invalid', message: 'bad', field: 'email' }]);
  });

  it('are never none', () => {
    expect(() => new ApiError([])).toThrow('ApiError needs at least one error item');
  });
});

describe('badChoice', () => {
  it('lists the values a parameter takes, the last after "or", after any context', () => {
    const text = (e: ApiError) => e.errors.map((i) => `${i.code} ${i.field ?? '-'} ${i.message}`);
    expect(text(badChoice('order', ['asc', 'desc']))).toEqual(["bad_request order bad 'order' parameter: use asc or desc"]);
    expect(text(badChoice('sort', ['created_at', 'updated_at', 'signed_up_at'], 'with created_since, ')))
      .toEqual(["bad_request sort bad 'sort' parameter: with created_since, use created_at, updated_at or signed_up_at"]);
    expect(text(badChoice('state', ['open']))).toEqual(["bad_request state bad 'state' parameter: use open"]);
    expect(text(badChoice('state', []))).toEqual(["bad_request state bad 'state' parameter: use "]);
    expect(badChoice('order', ['asc']).status).toBe(400);
  });
});
