// Stored records. They are also the fixture format: `GET /__admin/state` writes them as they are and
// `POST /__admin/seed` reads them back, so export and seed round-trip by construction. Each type is
// its fixture schema's (fixtures/schema.ts) with every member present, since a seed fills the
// defaults: the shape is declared once. Records are never mutated once stored (the seeded base is
// shared between apps); a write stores a new object.

import type { StaticOf } from '../schemas/json-schema.js';
import type {
  adminSchema,
  appSchema,
  attachment,
  authorSchema,
  bulkTaskJobSchema,
  companySchema,
  conversationSchema,
  customerSchema,
  dataAttributeSchema,
  enrichJobSchema,
  noteSchema,
  partSchema,
  segmentSchema,
  tagSchema,
  teamSchema,
  webhookJobSchema,
} from '../fixtures/schema.js';

/** A fixture record as stored: every member present, but those listed in `Absent`, which records may leave out. */
export type Stored<S, Absent extends keyof StaticOf<S> = never> = Required<Omit<StaticOf<S>, Absent>> & Pick<StaticOf<S>, Absent>;

export type Customer = Stored<typeof customerSchema>;
export type CustomerType = Customer['type'];
export type CustomAttributes = Customer['custom_attributes'];
export type CustomAttributeValue = CustomAttributes[string];
export type SocialProfile = Customer['social_profiles'][number];

export type Company = Stored<typeof companySchema>;
export type Tag = Stored<typeof tagSchema>;
export type Segment = Stored<typeof segmentSchema>;
export type Admin = Stored<typeof adminSchema>;
export type Team = Stored<typeof teamSchema>;
export type Note = Stored<typeof noteSchema>;

export type DataAttribute = Stored<typeof dataAttributeSchema, 'options' | 'admin_id'>;
export type DataType = DataAttribute['data_type'];

export type Author = Stored<typeof authorSchema>;
export type Attachment = Stored<typeof attachment>;
export type ConversationPart = Stored<typeof partSchema>;
export type PartType = ConversationPart['part_type'];

/**
 * `state`, `snoozed_until` and `waiting_since` are the lifecycle members the reply variants move
 * (resources/conversations/state.ts): absent in records no such write has touched (seeded ones),
 * read through `lifecycleOf`, which gives the default, so fixtures and exports stay as they were.
 */
export type Conversation = Omit<Stored<typeof conversationSchema, 'state' | 'snoozed_until' | 'waiting_since'>, 'parts'> & { parts: ConversationPart[] };
export type ConversationState = NonNullable<Conversation['state']>;

export type AppConfig = Stored<typeof appSchema, 'token_owners' | 'strict' | 'mute_warnings'>;

export type EnrichJob = Stored<typeof enrichJobSchema>;
export type BulkTaskJob = Stored<typeof bulkTaskJobSchema>;
export type WebhookJob = Stored<typeof webhookJobSchema>;
export type Job = EnrichJob | BulkTaskJob | WebhookJob;
