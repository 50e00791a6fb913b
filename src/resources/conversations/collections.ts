// Conversations, and each customer's conversations in the order it joined them. Declared here once; state/collections.ts puts every room's together.

import { map } from '../../engine/collections.js';
import type { JoinLog } from '../../engine/join-log.js';
import type { Conversation } from '../../engine/types.js';

export const conversationCollections = {
  conversations: map<Conversation>(),
  /** customer id -> the conversations whose customers name it, in the order it joined them */
  conversationsOf: map<JoinLog>(),
  /** customer id NUL conversation id -> its place in conversationsOf's log */
  conversationSeqs: map<number>(),
};
