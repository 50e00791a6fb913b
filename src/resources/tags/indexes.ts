// A tag's lookups (by id, by name: unknown is 404 not_found) and what a tag write keeps true beside
// the record: the tags limit and the index by name.

import type { AppState } from '../../state/app-state.js';
import { notFound } from '../../core/errors.js';
import { tagNameKey } from '../../core/normal-text.js';
import { checkRoom } from '../../state/limits.js';
import type { Tag } from '../../engine/types.js';

/** Stores a tag record (rules.ts saveTag is the API's create-or-rename). */
export function storeTag(app: AppState, next: Tag): void {
  const prev = app.data.tags.get(next.id);
  if (!prev) checkRoom(app, 'tags', app.data.tags.size + 1, 'tags');
  if (prev && tagNameKey(prev.name) !== tagNameKey(next.name)) {
    app.data.tagByName.delete(tagNameKey(prev.name));
  }
  app.data.tagByName.set(tagNameKey(next.name), next.id);
  app.data.tags.set(next.id, next);
}

export function tagByName(app: AppState, name: string): Tag | undefined {
  const id = app.data.tagByName.get(tagNameKey(name));
  return id === undefined ? undefined : app.data.tags.get(id);
}

/** The tag of that id; none: 404 not_found, as GET and DELETE /tags answer. */
export function requireTag(app: AppState, id: string): Tag {
  const tag = app.data.tags.get(id);
  if (!tag) throw notFound();
  return tag;
}

/** The tag of that name, compared as tags' names are (core/normal-text.ts tagNameKey); none: 404 not_found. */
export function requireTagByName(app: AppState, name: string): Tag {
  const tag = tagByName(app, name);
  if (!tag) throw notFound();
  return tag;
}
