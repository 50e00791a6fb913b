// What a note write keeps true beside the record: its bytes and the person's notes index (customer
// id -> note ids in creation order, engine/join-log.ts), so a person's notes are read, moved and
// deleted at the cost of that person's notes, never a walk of the app's.

import type { AppState } from '../../state/app-state.js';
import type { Listing } from '../../core/pagination.js';
import { addBytes } from '../../engine/byte-budget.js';
import { join, joined, joinedCount, joinedSlice, leave, type JoinMaps } from '../../engine/join-log.js';
import type { Note } from '../../engine/types.js';

export const noteMaps = (app: AppState): JoinMaps => ({ logs: app.data.notesOf, seqs: app.data.noteSeqs });

/**
 * What a note keeps: its texts (two bytes a character), the record and its index entry. The person's
 * id is counted in the constant (ids are short), so a merge moving notes leaves the tally exact.
 */
export const noteBytes = (n: Note): number => 2 * (n.body.length + n.id.length + n.admin_id.length) + 264;

/** A new note: counted, stored and joined to its person's index. */
export function storeNote(app: AppState, note: Note): void {
  addBytes(app.data.tallies, 'notes', noteBytes(note));
  app.data.notes.set(note.id, note);
  join(noteMaps(app), note.customer, note.id);
}

/** A person's notes newest first, read through its index: a slice costs its length (log of the index). */
export function personNotes(app: AppState, customerId: string): Listing<Note> {
  const maps = noteMaps(app);
  const total = joinedCount(maps, customerId);
  const notes = app.data.notes;
  // The log is oldest first: the newest-first slice [start, end) is its positions [total-end, total-start), reversed.
  return {
    total,
    slice: (start, end) =>
      // Stryker disable next-line ArrowFunction,BooleanLiteral: equivalent, with allKept the log never calls keep, and without it a keep-all gives the same slice
      joinedSlice(maps, customerId, Math.max(0, total - end), total - start, () => true, true)
        .reverse()
        .map((id) => notes.get(id) as Note),
  };
}

const allNoteIds = (app: AppState, customerId: string): string[] => joined(noteMaps(app), customerId, (id) => (app.data.notes.get(id)?.customer === customerId ? id : undefined));

/** A permanent deletion: the person's notes go with it (cost: its notes). */
export function deleteNotesOf(app: AppState, customerId: string): void {
  const maps = noteMaps(app);
  for (const id of allNoteIds(app, customerId)) {
    const note = app.data.notes.get(id);
    // A seeded note stays in the base: only notes the API added give back their bytes.
    if (note && app.base.data.notes.get(id)?.body !== note.body) addBytes(app.data.tallies, 'notes', -noteBytes(note));
    app.data.notes.delete(id);
    leave(maps, customerId, id);
  }
}

/**
 * A lead merged into a user: its notes become the user's, and the user's index is rebuilt in
 * creation order over both (cost: the two people's notes, never the app's).
 */
export function moveNotes(app: AppState, fromId: string, toId: string): void {
  const moving = allNoteIds(app, fromId);
  if (moving.length === 0) return;
  const maps = noteMaps(app);
  const staying = allNoteIds(app, toId);
  for (const id of moving) {
    leave(maps, fromId, id);
    app.data.notes.set(id, { ...(app.data.notes.get(id) as Note), customer: toId });
  }
  for (const id of staying) leave(maps, toId, id);
  const merged: string[] = [];
  let i = 0;
  let j = 0;
  while (i < staying.length || j < moving.length) {
    const takeStaying = j >= moving.length || (i < staying.length && Number(staying[i]) < Number(moving[j]));
    merged.push((takeStaying ? staying[i++] : moving[j++]) as string);
  }
  for (const id of merged) join(maps, toId, id);
}
