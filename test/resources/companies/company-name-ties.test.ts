// GET /companies?name= when several companies share the name and were last updated at the same
// time: the highest id answers, whichever took the name first.

import { describe, expect, it } from 'vitest';
import { mock, type TestMock } from '../../helpers.js';

const upsert = async (m: TestMock, companyId: string, name: string): Promise<string> => {
  const res = await m.call('POST', '/companies', { body: { company_id: companyId, name } });
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
};
const byName = async (m: TestMock, name: string) => (await m.call('GET', `/companies?name=${name}`)).body.id as string;

describe('GET /companies?name= ties of updated_at', () => {
  it('the higher id wins when it took the name first', async () => {
    const m = mock();
    const low = await upsert(m, 'tie-low', 'Elsewhere');
    const high = await upsert(m, 'tie-high', 'Twin');
    expect(low < high).toBe(true);
    await upsert(m, 'tie-low', 'Twin');
    expect(await byName(m, 'Twin')).toBe(high);
  });

  it('the higher id wins when it took the name last', async () => {
    const m = mock();
    const low = await upsert(m, 'tie-low', 'Twin');
    const high = await upsert(m, 'tie-high', 'Twin');
    expect(low < high).toBe(true);
    expect(await byName(m, 'Twin')).toBe(high);
  });
});
