// Wire shape of a note (surface N1): the author with its name and email, the person as a reference
// whose type is read from the record now (a lead that became a user shows as a user).

import type { Pages } from '../../core/pagination.js';
import type { AppState } from '../../state/app-state.js';
import type { Note } from '../../engine/types.js';

export function noteView(app: AppState, note: Note) {
  const admin = app.data.admins.get(note.admin_id);
  return {
    type: 'note' as const,
    id: note.id,
    created_at: note.created_at,
    body: note.body,
    author: { type: 'admin' as const, id: note.admin_id, name: admin?.name ?? '', email: admin?.email ?? '', companies: [] as never[] },
    user: { type: app.data.customers.get(note.customer)?.type === 'contact' ? ('lead' as const) : ('user' as const), id: note.customer },
  };
}

/**
 * The real note list's pages carry no `type` (surface N2; PHP's fixture `"pages": {}`), so the
 * clients that page by `pages.type` (Ruby, Python) read one page, as they did against the real API.
 */
export function noteListView(app: AppState, total: number, notes: readonly Note[], pages: Pages) {
  const { type: _paged, ...untyped } = pages;
  return { type: 'note.list' as const, notes: notes.map((n) => noteView(app, n)), total_count: total, pages: untyped };
}
