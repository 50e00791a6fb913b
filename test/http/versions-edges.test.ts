// Edges of the version table (src/core/versions.ts) that the per-version suites do not reach: the
// method of a later version's path, and how much of a bad Intercom-Version value an error quotes.

import { describe, expect, it } from 'vitest';
import { errorCodes, mock } from '../helpers.js';

const m = mock();

describe('the version table at its edges', () => {
  it('a later version\'s path is known for its method only: another method is an unknown path', async () => {
    const known = await m.call('GET', '/conversations/x/parts');
    expect(known.status).toBe(400);
    expect(errorCodes(known)).toEqual(['intercom_version_invalid']);
    for (const [method, path] of [
      ['POST', '/conversations/x/parts'],
      ['GET', '/contacts/merge/x'],
    ] as const) {
      const res = await m.call(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(errorCodes(res)).toEqual(['not_found']);
      expect(res.body.errors[0].message).toBe('The requested resource does not exist; check your path and try again');
    }
  });

  it('quotes a bad version value whole up to 20 characters, cut with an ellipsis past that', async () => {
    const quoted = async (value: string) => {
      const res = await m.call('GET', '/admins', { headers: { 'intercom-version': value } });
      expect(errorCodes(res)).toEqual(['intercom_version_invalid']);
      return res.body.errors[0].message as string;
    };
    expect(await quoted('x'.repeat(20))).toBe(`Intercom-Version "${'x'.repeat(20)}" is not a version this API serves: send one of 1.0, 1.1, 1.2, 1.3, 1.4, Unstable.`);
    expect(await quoted('y'.repeat(21))).toBe(`Intercom-Version "${'y'.repeat(20)}…" is not a version this API serves: send one of 1.0, 1.1, 1.2, 1.3, 1.4, Unstable.`);
  });
});
