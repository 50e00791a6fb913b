// The 1.4 custom-attribute name rule applies to writes that would create an attribute: a customer
// write's companies[] item with remove: true creates none (its attributes are ignored), so 1.4
// answers it as 1.3 does.

import { describe, expect, it } from 'vitest';
import { mock } from '../helpers.js';

const body = { user_id: 'rule-remove', companies: [{ company_id: 'nowhere', remove: true, custom_attributes: { 'two words': 1 } }] };

describe('1.4 name rule and a companies[] removal', () => {
  it('a removal that creates no attribute is not refused by the naming rule', async () => {
    const m13 = mock();
    const r13 = await m13.call('POST', '/users', { headers: { 'intercom-version': '1.3' }, body });
    expect(r13.status, r13.text).toBe(200);
    const names13 = (await m13.call('GET', '/data_attributes/company', { headers: { 'intercom-version': '1.3' } })).body.data_attributes.map((a: { name: string }) => a.name);
    expect(names13).not.toContain('two words');
    const m14 = mock();
    const r14 = await m14.call('POST', '/users', { headers: { 'intercom-version': '1.4' }, body });
    expect(r14.status, r14.text.slice(0, 300)).toBe(200);
  });
});
