// DELETE /tags/{id} (T1), GET /tags/{id} and GET /tags?name= (T2). A deletion reads the tag's
// holders from the index (memberships.ts) and rewrites only them: users, leads, visitors,
// companies and conversations, so it costs what the tag holds, never the app. A tag a segment's
// rule uses (the segment fixture's `rule_tags`) is refused, as the real API refused tags with
// dependent objects.

import { apiError } from '../../core/errors.js';
import { tagNameKey } from '../../core/normal-text.js';
import type { AppState } from '../../state/app-state.js';
import { allHolders, holderKey, type HolderKind, holderMaps } from '../cross-resource/memberships.js';
import type { Tag } from '../../engine/types.js';
import { saveConversation } from '../conversations/indexes.js';
import { saveCustomer } from '../customers/indexes.js';
import { requireTag } from './indexes.js';
import { saveCompany } from '../companies/indexes.js';

const without = (tags: readonly string[], id: string): string[] => tags.filter((t) => t !== id);

/** Removes the tag from every record holding it, then the tag itself; answers the tag as it was. */
export function deleteTag(app: AppState, id: string): Tag {
  const tag = requireTag(app, id);
  // Segments are fixtures (a few per app), so reading them all is bounded by the fixture, not by requests.
  const dependents = [...app.data.segments.values()].filter((s) => s.rule_tags.includes(id));
  if (dependents.length > 0) {
    throw apiError('tag_has_dependent_objects', `Unable to delete Tag with dependent objects. Segments: ${dependents.map((s) => s.name).join(', ')}.`);
  }
  // Its sorted lists go first: each holder leaving them would cost a splice.
  // Stryker disable next-line StringLiteral: equivalent, a cost only: each holder's rewrite below leaves the tag's lists anyway
  app.sorted.dropLabel('t', id);
  const maps = holderMaps(app);
  const { customers, companies, conversations } = app.data;
  // A deletion changes the tag, not the records: their updated_at stays.
  for (const kind of ['user', 'contact', 'visitor'] as HolderKind[]) {
    for (const holder of allHolders(maps, holderKey(kind, 't', id))) {
      const c = customers.get(holder);
      if (c) saveCustomer(app, { ...c, tags: without(c.tags, id) });
    }
  }
  for (const holder of allHolders(maps, holderKey('company', 't', id))) {
    const c = companies.get(holder);
    if (c) saveCompany(app, { ...c, tags: without(c.tags, id) });
  }
  for (const holder of allHolders(maps, holderKey('conversation', 't', id))) {
    const c = conversations.get(holder);
    if (c) saveConversation(app, { ...c, tags: without(c.tags, id) });
  }
  app.data.tagByName.delete(tagNameKey(tag.name));
  app.data.tags.delete(id);
  return tag;
}
