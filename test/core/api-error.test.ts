// What an ApiError says of itself where it is logged rather than answered.

import { describe, expect, it } from 'vitest';
import { apiError } from '../../src/core/errors.js';

describe('ApiError', () => {
  it('names itself and its first message when printed', () => {
    expect(String(apiError('not_found', 'User Not Found'))).toBe('ApiError: User Not Found');
  });
});
