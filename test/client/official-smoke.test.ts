import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADA } from '../fixture-ids.js';
import { officialClientMock, type OfficialClientMock } from './official.js';

// The harness itself: the official client reaches the mock, and its answers pass the contract check.
describe('official Node client harness', () => {
  let m: OfficialClientMock;
  beforeAll(async () => (m = await officialClientMock()));
  afterAll(() => m.close());

  it('finds a user by id and by email through a real socket', async () => {
    const byId = await m.client().users.find({ id: ADA });
    expect(byId.statusCode).toBe(200);
    expect(byId.body.id).toBe(ADA);
    const byEmail = await m.client().users.find({ email: byId.body.email });
    // The default version, 1.0, answers an email lookup with the one user.
    expect(byEmail.body).toMatchObject({ type: 'user', id: ADA });
    expect(m.seen.map((s) => s.status)).toEqual([200, 200]);
  });

  it('surfaces an error answer as the client rejects it', async () => {
    await expect(m.client().users.find({ id: 'nope' })).rejects.toMatchObject({ statusCode: 404 });
  });
});
