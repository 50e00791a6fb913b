// The only code that makes outbound HTTP: webhook deliveries. The store hands it each due delivery
// job (resources/jobs/run.ts); it POSTs the notification in the background, one at a time per subscription
// so a receiver sees them in order, and records the attempt in the feeds and the journal. API
// requests never wait for it: they only queue jobs.

import { createHmac } from 'node:crypto';
import type { AppState } from '../../state/app-state.js';
import type { Store } from '../../state/store.js';
import type { WebhookJob } from '../../engine/types.js';
import { noteAttempt } from './attempts.js';
import { deliveryBytes } from './bytes.js';
import { keepEntry } from './feeds.js';
import { MAX_PENDING_DELIVERIES } from './limits.js';
import { MAX_DELIVERIES_IN_FLIGHT, post, Slots, type Outcome } from './send.js';
import { isAllowedTarget, isSelf, refusal, SELF_REFUSAL, type WebhookHosts } from './targets.js';

import {
  deactivate,
  MAX_ATTEMPTS,
  MAX_THROTTLED_AGE_SECONDS,
  queueDelivery,
  RETRY_DELAY_SECONDS,
  setThrottle,
  takeQueued,
  throttleOf,
  type FeedEntry,
  type Subscription,
  type WebhookSink,
} from './rules.js';

/** "If you don't send a response within that time [5 s], the notification is treated as failed" (DH-1.x). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5000;
const USER_AGENT = 'intercom-parrot-service-client/1.0';

export type { WebhookHosts } from './targets.js';

export interface DeliveryOptions {
  hosts: WebhookHosts;
  timeoutMs: number;
  /** Sends at once (default MAX_DELIVERIES_IN_FLIGHT). */
  maxInFlight?: number;
}

export const signature = (secret: string, body: string): string => `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;

/** Queues a throttled delivery for when the throttle ends, or drops it (into the error feed) past 2 h. */
function requeueThrottled(app: AppState, sub: Subscription, job: WebhookJob, until: number): void {
  const createdAt = Number(job.notification.created_at);
  if (until - createdAt <= MAX_THROTTLED_AGE_SECONDS) {
    queueDelivery(app, sub.id, job.notification, job.attempt, until);
    return;
  }
  keepEntry(app, sub.id, 'error', {
    notification: { ...job.notification, delivery_attempts: job.attempt, delivery_status: 'failed', delivered_at: 0 },
    http_request: {
      request_method: 'POST',
      request_uri: sub.url,
      request_headers: {},
      request_entity: '',
      response_status_code: 0,
      response_headers: {},
      response_entity: `Dropped: the receiver throttled this subscription (429) past ${MAX_THROTTLED_AGE_SECONDS / 3600} hours after the notification was created`,
    },
  });
}

/** A delivery handed over by the store and not attempted yet. */
interface Taken {
  app: AppState;
  job: WebhookJob;
  /** The app's delivery queue when it was handed over: a reset, restore or load installs a new one, and the state it was owed to is gone. */
  queue: AppState['deliveries'];
  bytes: number;
  lane: Lane;
  /** Attempted, withdrawn or dropped: no longer counted as handed over. */
  gone: boolean;
}

/**
 * One subscription's deliveries handed over and not attempted yet, sent one at a time in the order
 * they were handed over. A 429 takes back the ones still waiting here (withdraw) so they are
 * queued again in their place: before the ones the store still holds.
 */
interface Lane {
  waiting: Taken[];
  next: number;
  /** Entries past `next` dropped by the app's cap, cut out once they are half the lane. */
  dropped: number;
}

/**
 * An app's deliveries handed over and waiting in its lanes, oldest first: taken off the queue, they
 * are held to the queue's own limits (1,000 and limits.webhookQueueBytes) here, the oldest dropped
 * past them, so a receiver that never answers cannot make them grow.
 */
interface Handed {
  order: Taken[];
  head: number;
  count: number;
  bytes: number;
  /** Bytes of the settled entries still in `order` (each holds its job): cut out past the queue's byte limit. */
  dead: number;
}

/** Past this many attempted entries at the head of a lane, they are cut off (a lane that never empties stays small). */
const LANE_COMPACT = 256;

export function installDelivery(store: Store, options: DeliveryOptions): WebhookSink {
  const lanes = new Map<string, Lane>();
  const running = new Set<Promise<void>>();
  /** Set once the server listens (sink.listening). */
  let ownPort: number | undefined;
  const slots = new Slots(options.maxInFlight ?? MAX_DELIVERIES_IN_FLIGHT);
  /** Attempts taken and not finished, per app and notification id (retry must not queue them twice). */
  const outstanding = new Map<string, number>();
  const outstandingKey = (app: AppState, job: WebhookJob) => `${app.id}\u0000${String(job.notification.id)}`;
  const handed = new WeakMap<AppState, Handed>();

  /** A waiting delivery leaves the app's handed-over count (attempted, withdrawn or dropped). */
  function settle(taken: Taken): void {
    taken.gone = true;
    const h = handed.get(taken.app) as Handed;
    h.count--;
    h.bytes -= taken.bytes;
    h.dead += taken.bytes;
    // Nothing waits: the settled entries (and their jobs) go at once, so an idle app keeps none.
    if (h.count === 0) {
      h.order = [];
      h.head = 0;
      h.dead = 0;
    }
  }

  function hand(taken: Taken): void {
    let h = handed.get(taken.app);
    if (!h) handed.set(taken.app, (h = { order: [], head: 0, count: 0, bytes: 0, dead: 0 }));
    h.order.push(taken);
    h.count++;
    h.bytes += taken.bytes;
    while (h.count > MAX_PENDING_DELIVERIES || h.bytes > taken.app.limits.webhookQueueBytes) {
      const oldest = h.order[h.head++] as Taken;
      if (oldest.gone) continue;
      settle(oldest);
      release(oldest);
      const lane = oldest.lane;
      if (++lane.dropped * 2 > lane.waiting.length - lane.next) {
        lane.waiting = lane.waiting.slice(lane.next).filter((t) => !t.gone);
        lane.next = 0;
        lane.dropped = 0;
      }
    }
    // Settled ones stay in `order` until cut out here, once they outnumber those waiting or their
    // jobs outweigh the queue's byte limit.
    if (h.order.length - h.head > 2 * h.count + LANE_COMPACT || h.dead > taken.app.limits.webhookQueueBytes) {
      h.order = h.order.slice(h.head).filter((t) => !t.gone);
      h.head = 0;
      h.dead = 0;
    }
  }

  function release({ app, job }: Taken): void {
    const nid = outstandingKey(app, job);
    const left = (outstanding.get(nid) ?? 1) - 1;
    if (left > 0) outstanding.set(nid, left);
    else outstanding.delete(nid);
  }

  /** Takes this app's deliveries still waiting in the lane out of it, in order. */
  function withdraw(lane: Lane, app: AppState): WebhookJob[] {
    const rest = lane.waiting.slice(lane.next);
    const mine = rest.filter((t) => t.app === app && !t.gone);
    // Another app of the same id (re-seeded meanwhile) keeps its place.
    lane.waiting = rest.filter((t) => t.app !== app && !t.gone);
    lane.next = 0;
    lane.dropped = 0;
    for (const t of mine) {
      settle(t);
      release(t);
    }
    // Those handed over before a reset or restore are owed to nobody now: dropped, not queued again.
    return mine.filter((t) => t.queue === app.deliveries).map((t) => t.job);
  }

  async function drain(key: string, lane: Lane): Promise<void> {
    while (lane.next < lane.waiting.length) {
      const taken = lane.waiting[lane.next++] as Taken;
      if (lane.next >= LANE_COMPACT) {
        lane.waiting = lane.waiting.slice(lane.next);
        lane.next = 0;
      }
      // Dropped past the app's cap: already released.
      if (taken.gone) {
        lane.dropped--;
        continue;
      }
      settle(taken);
      try {
        await attempt(taken, lane);
      } catch {
        // A failed attempt is recorded by attempt itself; nothing may stop the lane.
      } finally {
        release(taken);
      }
    }
    if (lanes.get(key) === lane) lanes.delete(key);
  }

  async function attempt(taken: Taken, lane: Lane): Promise<void> {
    const { app, job } = taken;
    // Handed over before a reset, restore or load: that state is gone, so nothing is sent for it.
    const current = (): boolean => app.deliveries === taken.queue;
    if (!current()) return;
    const sub = app.data.subscriptions.get(job.subscription_id);
    if (!sub?.active) return;
    // A throttled subscription (429): its deliveries wait, in order, until the throttle ends.
    const held = throttleOf(app, sub.id);
    if (held && held.until > store.now()) {
      requeueThrottled(app, sub, job, held.until);
      return;
    }
    const notification: Record<string, unknown> = { ...job.notification, delivery_attempts: job.attempt };
    // Serialised once: the signature covers exactly the bytes sent.
    const body = JSON.stringify(notification);
    const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json', 'User-Agent': USER_AGENT };
    if (sub.hub_secret) headers['X-Hub-Signature'] = signature(sub.hub_secret, body);
    let started = performance.now();
    const outcome: Outcome = !isAllowedTarget(sub.url, options.hosts)
      ? { status: 0, headers: {}, entity: refusal(options.hosts) }
      : (await isSelf(sub.url, ownPort))
        ? { status: 0, headers: {}, entity: SELF_REFUSAL }
        : await post(sub.url, headers, body, options.timeoutMs, slots, () => (started = performance.now()));
    const now = store.now();
    const ok = outcome.status >= 200 && outcome.status < 300;
    const entry: FeedEntry = {
      notification: { ...notification, delivery_status: ok ? 'delivered' : 'failed', delivered_at: ok ? now : 0 },
      http_request: {
        request_method: 'POST',
        request_uri: sub.url,
        request_headers: headers,
        request_entity: body,
        response_status_code: outcome.status,
        response_headers: outcome.headers,
        response_entity: outcome.entity,
      },
    };
    noteAttempt(entry, now, performance.now() - started);
    const url = new URL(sub.url);
    app.journal.add({
      seq: store.nextJournalSeq(),
      time: now,
      app: app.id,
      request_id: String(notification.id),
      method: 'POST',
      path: `${url.origin}${url.pathname}`,
      search: '',
      bodyText: body,
      status: outcome.status,
      operationId: 'webhookDelivery',
      touched: [sub.id, String(notification.id)],
    });
    // A reset, restore or delete while the attempt was out: the journal keeps what went over the
    // wire, but the app's feeds, throttle and queue are no longer the ones it was sent for.
    if (!current() || !app.data.subscriptions.has(sub.id)) return;
    keepEntry(app, sub.id, ok ? 'sent' : 'error', entry);
    // Only a 2xx lifts the throttle and only a 429 sets it: other failures leave it as it was.
    if (ok) {
      setThrottle(app, sub.id, now, false);
      return;
    }
    const until = outcome.status === 429 ? setThrottle(app, sub.id, now, true) : now;
    // 410 Gone: "disable the subscription" (DH-1.x); 429: held back, the attempt not counted; other
    // failures: one retry a minute later.
    if (outcome.status === 410) deactivate(app, sub.id, now);
    else if (outcome.status === 429) {
      // This one first, then those handed over with or after it and not sent yet, then those still
      // queued: all due when the throttle ends, in the order they would have gone.
      const waiting = withdraw(lane, app);
      const queued = takeQueued(app, sub.id);
      for (const j of [job, ...waiting, ...queued]) requeueThrottled(app, sub, j, until);
    }
    else if (job.attempt < MAX_ATTEMPTS) queueDelivery(app, sub.id, job.notification, job.attempt + 1, now + RETRY_DELAY_SECONDS);
  }

  const sink: WebhookSink = {
    take(app, job) {
      const key = `${app.id}\u0000${job.subscription_id}`;
      const nid = outstandingKey(app, job);
      outstanding.set(nid, (outstanding.get(nid) ?? 0) + 1);
      const lane = lanes.get(key);
      if (lane) {
        const taken: Taken = { app, job, queue: app.deliveries, bytes: deliveryBytes(job), lane, gone: false };
        lane.waiting.push(taken);
        hand(taken);
        return;
      }
      const fresh: Lane = { waiting: [], next: 0, dropped: 0 };
      const taken: Taken = { app, job, queue: app.deliveries, bytes: deliveryBytes(job), lane: fresh, gone: false };
      fresh.waiting.push(taken);
      hand(taken);
      lanes.set(key, fresh);
      // Started on a later tick: the store's run that hands deliveries over finishes first, so what
      // an attempt queues back (a throttled delivery) is never taken again by that same run.
      const worker = Promise.resolve().then(() => drain(key, fresh));
      running.add(worker);
      void worker.then(() => running.delete(worker));
    },
    held(app) {
      const h = handed.get(app);
      return { waiting: h?.count ?? 0, kept: h ? h.order.length - h.head : 0 };
    },
    async settled() {
      while (running.size > 0) await Promise.all([...running]);
    },
    allows: (url) => isAllowedTarget(url, options.hosts),
    listening(port) {
      ownPort = port;
    },
    inFlight: () => slots.state(),
    sending: (app, notificationId) => outstanding.has(`${app.id}\u0000${notificationId}`),
  };
  store.webhooks = sink;
  return sink;
}
