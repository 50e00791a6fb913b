// The complete fixture document (every member present) and the loose input form people write.

import type { ActivityLog } from './activity-logs.js';
import type { BulkJob } from './bulk-jobs.js';
import type { EventLog, EventRecord, EventSummaryRecord } from './events.js';
import type { Subscription } from './webhooks.js';
import type { Admin, AppConfig, Company, Conversation, Customer, DataAttribute, Job, Note, Segment, Tag, Team } from './types.js';

export interface FixtureDocument {
  app: AppConfig;
  admins: Admin[];
  teams: Team[];
  segments: Segment[];
  tags: Tag[];
  data_attributes: DataAttribute[];
  companies: Company[];
  customers: Customer[];
  conversations: Conversation[];
  jobs: Job[];
  /** Users archived by DELETE /users, restorable by POST /users (store/archive.ts). */
  archived_customers: Customer[];
  /** How many permanent-deletion requests the app has answered: the last id handed out. */
  user_delete_requests: number;
  /** Ids of permanently deleted customers that conversations still name (derived on export). */
  former_customers: string[];
  /** Notes on users and leads (POST /notes), oldest first. */
  notes: Note[];
  /** Custom company attributes (GET /data_attributes/company); undeclared ones companies carry are registered on load. */
  company_data_attributes: DataAttribute[];
  /** Data events kept, oldest first (store/events.ts). */
  events: EventRecord[];
  /** The running summaries of the people's event names (GET /events?summary=true). */
  event_summaries: EventSummaryRecord[];
  /** The log's bounds (present once the app's log has held an event), so a seed keeps cursors and the cap count. */
  event_log?: EventLog;
  /** Bulk jobs, oldest first (store/bulk-jobs.ts). */
  bulk_jobs: BulkJob[];
  /** Webhook subscriptions (store/webhooks.ts); written only when the app has some. */
  subscriptions?: Subscription[];
  /** Admin activity logs, oldest first (store/activity-logs.ts); written only when the app has some. */
  activity_logs?: ActivityLog[];
}

export interface GenerateSpec {
  users?: number;
  leads?: number;
  visitors?: number;
  companies?: number;
  conversations?: number;
  /** Conversation id -> number of extra parts to generate for it. */
  parts?: Record<string, number>;
}

type Loose<T, K extends keyof T> = Partial<T> & Pick<T, K>;

/** What a fixture file or a seed body holds, as validated by fixtures/schema.ts. */
export interface FixtureInput {
  description?: string;
  app: Loose<AppConfig, 'id' | 'tokens'>;
  admins?: Loose<Admin, 'id' | 'name' | 'email'>[];
  teams?: Loose<Team, 'id' | 'name'>[];
  segments?: Loose<Segment, 'id' | 'name'>[];
  tags?: Tag[];
  data_attributes?: Loose<DataAttribute, 'name' | 'data_type'>[];
  companies?: Loose<Company, 'id' | 'company_id'>[];
  customers?: Loose<Customer, 'id'>[];
  conversations?: Loose<Conversation, 'id' | 'customers' | 'author'>[];
  jobs?: Job[];
  archived_customers?: Loose<Customer, 'id'>[];
  user_delete_requests?: number;
  former_customers?: string[];
  notes?: Loose<Note, 'id' | 'customer' | 'admin_id' | 'body'>[];
  company_data_attributes?: Loose<DataAttribute, 'name' | 'data_type'>[];
  events?: EventRecord[];
  event_summaries?: EventSummaryRecord[];
  event_log?: EventLog;
  bulk_jobs?: BulkJob[];
  subscriptions?: Loose<Subscription, 'id' | 'url' | 'topics'>[];
  activity_logs?: ActivityLog[];
  generate?: GenerateSpec;
}

/** Where a problem in a fixture was found: the file (if any) and the path of the member. */
export class FixtureError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
    readonly file?: string,
  ) {
    super(`${file ? `${file}: ` : ''}${path || '(document)'}: ${problem}`);
    this.name = 'FixtureError';
  }

  inFile(file: string): FixtureError {
    return new FixtureError(this.path, this.problem, file);
  }
}
