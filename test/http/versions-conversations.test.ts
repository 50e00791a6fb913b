// The version differences of conversations (1.1 fields), lists by email and phone (1.1 / 1.2) and
// the journal's version, each under every version it touches (README "API versions").

import { describe, expect, it } from 'vitest';
import { API_VERSIONS, type ApiVersion } from '../../src/core/versions.js';
import { expectRejected, mock } from '../helpers.js';
import { ADA, GROUP, LEAD } from '../fixture-ids.js';

const at = (version: ApiVersion) => ({ headers: { 'intercom-version': version } });
const VIP = { type: 'tag', id: '17513', name: 'VIP' };
const m = mock();

describe('conversation fields of 1.1', () => {
  it('1.1 on: GET /conversations/{id} carries delivered_as, the channel type, sent_at, customer_first_reply and tag applied_at/applied_by; 1.0 has none', async () => {
    for (const version of API_VERSIONS) {
      const res = await m.call('GET', `/conversations/${GROUP}`, at(version));
      expect(res.status).toBe(200);
      const { conversation_message: message, tags, ...rest } = res.body;
      if (version === '1.0') {
        expect(message).toEqual(expect.objectContaining({ type: 'conversation_message' }));
        expect(message).not.toHaveProperty('delivered_as');
        expect(rest).not.toHaveProperty('sent_at');
        expect(rest).not.toHaveProperty('customer_first_reply');
        expect(tags).toEqual({ type: 'tag.list', tags: [VIP] });
      } else {
        expect(message).toMatchObject({ type: 'conversation', delivered_as: 'customer_initiated' });
        expect(rest.sent_at).toBe(1766620800);
        expect(rest.customer_first_reply).toEqual({ created_at: 1766620800, type: 'conversation', url: null });
        expect(tags).toEqual({ type: 'tag.list', tags: [{ ...VIP, applied_at: 1766620800, applied_by: null }] });
      }
      expect(rest).not.toHaveProperty('first_action_at');
    }
  });

  it('1.1 on: list items carry first_action_at and last_action_at from the parts (null without parts); 1.0 has neither', async () => {
    for (const version of API_VERSIONS) {
      const res = await m.call('GET', '/conversations?per_page=60', at(version));
      expect(res.status).toBe(200);
      const group = res.body.conversations.find((c: { id: string }) => c.id === GROUP);
      if (version === '1.0') {
        for (const key of ['first_action_at', 'last_action_at', 'sent_at', 'customer_first_reply']) expect(group).not.toHaveProperty(key);
      } else {
        expect(group).toMatchObject({ first_action_at: 1766620860, last_action_at: 1766707200, sent_at: 1766620800 });
      }
    }
  });

  it('an admin-begun conversation: admin_initiated, no customer reply (null) until the customer comments, no parts: null action times', async () => {
    const own = mock();
    const sent = await own.call('POST', '/messages', {
      body: { message_type: 'inapp', body: 'Hello', from: { type: 'admin', id: '814860' }, to: { type: 'user', id: ADA } },
    });
    expect(sent.status).toBe(200);
    const list = await own.call('GET', '/conversations?per_page=1&order=desc&sort=created_at');
    const conversation = list.body.conversations[0];
    expect(conversation.conversation_message).toMatchObject({ type: 'conversation', delivered_as: 'admin_initiated' });
    expect(conversation).toMatchObject({ customer_first_reply: null, first_action_at: null, last_action_at: null });
    const reply = await own.call('POST', `/conversations/${conversation.id}/reply`, { body: { type: 'user', intercom_user_id: ADA, message_type: 'comment', body: 'Thanks' } });
    expect(reply.status).toBe(200);
    const t = reply.body.conversation_parts.conversation_parts[0].created_at;
    expect(reply.body.customer_first_reply).toEqual({ created_at: t, type: 'conversation', url: null });
    const old = await own.call('GET', `/conversations/${conversation.id}`, at('1.0'));
    expect(old.body).not.toHaveProperty('customer_first_reply');
  });
});

describe('lists by email (1.1: users and leads; 1.2 on: users only) and by phone (1.2 on)', () => {
  it('the default fixtures have no lead sharing a user\'s email: 1.1 and 1.2 list the same', async () => {
    const [v11, v12] = [await m.call('GET', '/users?email=ada@example.com', at('1.1')), await m.call('GET', '/users?email=ada@example.com', at('1.2'))];
    expect(v11.body.users.map((u: { id: string }) => u.id)).toEqual([ADA]);
    expect(v12.body.users.map((u: { id: string }) => u.id)).toEqual([ADA]);
  });

  it('a lead with a user\'s email: listed (type contact, after the older user) under 1.1 only; 1.0 finds the user', async () => {
    const own = mock();
    const lead = await own.call('POST', '/contacts', { body: { email: 'ada@example.com' } });
    expect(lead.status).toBe(200);
    const ids = async (version: ApiVersion) => {
      const res = await own.call('GET', '/users?email=ADA@example.com', at(version));
      expect(res.status).toBe(200);
      return res.body;
    };
    const v11 = await ids('1.1');
    expect(v11.total_count).toBe(2);
    expect(v11.users.map((u: { id: string; type: string }) => [u.type, u.id])).toEqual([
      ['user', ADA],
      ['contact', lead.body.id],
    ]);
    for (const version of ['1.2', '1.3', '1.4'] as const) {
      const body = await ids(version);
      expect([body.total_count, body.users.map((u: { id: string }) => u.id)]).toEqual([1, [ADA]]);
    }
    const found = await ids('1.0');
    expect([found.type, found.id]).toEqual(['user', ADA]);
  });

  it('GET /contacts?phone= answers the one lead from 1.2; under 1.0 and 1.1 it is ignored (strict mode: 400 parameter_invalid naming phone and the version)', async () => {
    const own = mock();
    const lead = await own.call('POST', '/contacts', { body: { phone: '+1 555 0100' } });
    expect(lead.status).toBe(200);
    for (const version of API_VERSIONS) {
      const path = `/contacts?phone=${encodeURIComponent('+1 555 0100')}`;
      if (version === '1.0' || version === '1.1') {
        // Ignored there, as any parameter the version did not know, with a warning; strict mode refuses it.
        const lenient = await own.call('GET', path, at(version));
        expect(lenient.body.contacts).toEqual((await own.call('GET', '/contacts', at(version))).body.contacts);
        expect(lenient.headers.get('x-mock-warning')).toMatch(/^version_parameter "phone /);
        const res = await expectRejected(own, 'GET', path, { headers: { ...at(version).headers, 'x-mock-strict': 'true' } }, 400, ['parameter_invalid']);
        expect(res.body.errors[0].message).toBe(`phone is not a filter of API version ${version}: it is one from version 1.2 (send Intercom-Version: 1.2 or later).`);
        expect(res.body.errors[0].field).toBe('phone');
      } else {
        const res = await own.call('GET', path, at(version));
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ type: 'contact', id: lead.body.id });
      }
    }
    expect((await own.call('GET', '/contacts?email=lead@example.com', at('1.0'))).body.contacts.map((c: { id: string }) => c.id)).toEqual([LEAD]);
  });
});

describe('the journal', () => {
  it('records the version each request was answered in', async () => {
    const own = mock();
    await own.call('GET', '/admins', at('1.4'));
    await own.call('GET', '/admins');
    const res = await own.call('GET', '/__admin/requests?operationId=listAdmins', { token: null });
    expect(res.status).toBe(200);
    expect(res.body.requests.map((e: { api_version: string }) => e.api_version)).toEqual(['1.4', '1.1']);
  });
});
