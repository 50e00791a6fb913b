// Wire shapes of POST /messages: an admin_message or a user_message (surface M1, M2).

import type { MessageResult } from './rules.js';

export function messageView(m: MessageResult) {
  if (m.kind === 'user') return { type: 'user_message' as const, id: m.id, created_at: m.created_at, body: m.body, message_type: 'inapp' as const };
  return {
    type: 'admin_message' as const,
    id: m.id,
    created_at: m.created_at,
    message_type: m.message_type,
    subject: m.subject,
    body: m.body,
    template: m.template,
    owner: { type: 'admin' as const, id: m.owner.id, name: m.owner.name, email: m.owner.email },
  };
}
