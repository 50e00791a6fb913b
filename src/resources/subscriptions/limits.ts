// The webhook topics and caps, imported without the rules (fixture and request schemas read them).

/** The v1-era topics (research-webhooks.md §1.1) the mock delivers; ping is always subscribed. */
export const TOPICS = [
  'conversation.user.created',
  'conversation.user.replied',
  'conversation.admin.replied',
  'conversation.admin.single.created',
  'conversation.admin.assigned',
  'conversation.admin.noted',
  'conversation.admin.closed',
  'conversation.admin.opened',
  'conversation.admin.snoozed',
  'conversation.admin.unsnoozed',
  'conversation_part.tag.created',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.unsubscribed',
  'user.email.updated',
  'user.tag.created',
  'user.tag.deleted',
  'contact.created',
  'contact.signed_up',
  'contact.added_email',
  'contact.tag.created',
  'contact.tag.deleted',
  'visitor.signed_up',
  'company.created',
  'event.created',
  'ping',
] as const;
export type Topic = (typeof TOPICS)[number];

/** "A maximum of 250 subscriptions can be created through the API" (RM-create). */
export const MAX_SUBSCRIPTIONS = 250;
/** Most topics and event names one subscription may name. */
export const MAX_TOPICS = TOPICS.length;
export const MAX_EVENT_NAMES = 100;
/** Entries each feed keeps, newest first; older ones go. */
export const FEED_LIMIT = 100;
/** Deliveries an app may have queued; past it the oldest queued one is dropped. */
export const MAX_PENDING_DELIVERIES = 1000;
/** The research's schedule: one retry, a minute after a failed first attempt (DH-1.x). */
export const RETRY_DELAY_SECONDS = 60;
export const MAX_ATTEMPTS = 2;
/** A 429 delays the subscription's deliveries a minute, doubling with each further 429 up to 2 h (DH-1.x). */
export const THROTTLE_SECONDS = 60;
export const MAX_THROTTLE_SECONDS = 7200;
/** A notification held back by 429s longer than this after it was created is dropped (DH-1.x). */
export const MAX_THROTTLED_AGE_SECONDS = 7200;
