// The version difference a client sees: users.find({email}) of the official Node client, which
// sends Intercom-Version only through useRequestOpts({headers}).

import { afterAll, describe, expect, it } from 'vitest';
import { API_VERSIONS } from '../../src/core/versions.js';
import { officialClientMock } from './official.js';

const m = await officialClientMock();
afterAll(() => m.close());

const ADA = '5714dd359a3fd47136000001';

describe('users.find({email}) per API version', () => {
  it.each(API_VERSIONS)('%s', async (version) => {
    const client = m.client().useRequestOpts({ headers: { 'Intercom-Version': version } });
    const found = await client.users.find({ email: 'ada@example.com' });
    if (version === '1.0') {
      expect(found.body).toMatchObject({ type: 'user', id: ADA });
      await expect(client.users.find({ email: 'shared@example.com' })).rejects.toMatchObject({ statusCode: 409 });
    } else {
      expect(found.body).toMatchObject({ type: 'user.list', total_count: 1 });
      expect(found.body.users[0].id).toBe(ADA);
    }
  });

  it('an app-version client without the header gets the default, 1.0: the one user', async () => {
    expect((await m.client().users.find({ email: 'ada@example.com' })).body).toMatchObject({ type: 'user', id: ADA });
  });
});
