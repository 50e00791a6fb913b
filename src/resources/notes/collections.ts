// Notes, and each customer's notes oldest first. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { JoinLog } from '../../engine/join-log.js';
import type { Note } from '../../engine/types.js';

export const noteCollections = {
  /** Notes by id (resources/notes/rules.ts). */
  notes: map<Note>(),
  /** customer id -> its notes' ids, oldest first (join-log.ts) */
  notesOf: map<JoinLog>(),
  /** customer id NUL note id -> its place in notesOf's log */
  noteSeqs: map<number>(),
};
