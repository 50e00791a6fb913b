// Injected faults: latency, error answers, a forced 429, and dropped rate-limit headers (the real
// service's occasional omission), for one app or all, for the next N matching requests or a seeded
// fraction of them. Deterministic: every random draw comes from the seeded fault stream of the app asked.

import { apiError, type ErrorCode } from '../core/errors.js';
import { hashSeed, Random } from '../core/random.js';

export interface FaultSpec {
  /** App id; absent: every app. */
  app?: string;
  operation_id?: string;
  method?: string;
  /** Exact path, or a prefix ending in `*`. */
  path?: string;
  /** Added latency in milliseconds; with latency_max_ms, drawn uniformly between the two. */
  latency_ms?: number;
  latency_max_ms?: number;
  /** Answer with this error (its catalogued status) instead of running the operation. */
  error?: ErrorCode;
  /** The same, given as a status (its most general code); set together with `error`. */
  status?: number;
  /** Answer 429 rate_limit_exceeded whatever the window says. */
  rate_limit?: boolean;
  /** Leave the X-RateLimit-* headers off the response. */
  drop_rate_limit_headers?: boolean;
  /** Apply to the next N matching requests, then expire. */
  count?: number;
  /** Apply to this fraction of matching requests (a seeded draw per request). */
  fraction?: number;
}

export interface Fault extends FaultSpec {
  id: number;
  /** How many times it has applied. */
  hits: number;
}

export interface FaultEffects {
  latencyMs: number;
  error: ErrorCode | undefined;
  rateLimit: boolean;
  dropRateLimitHeaders: boolean;
}

export const NO_EFFECTS: FaultEffects = Object.freeze({ latencyMs: 0, error: undefined, rateLimit: false, dropRateLimitHeaders: false });

export interface RequestKey {
  app: string;
  operationId: string;
  method: string;
  path: string;
}

/** Faults one scope (an app, or every app) may hold: a request reads its app's and the global ones. */
export const MAX_FAULTS_PER_SCOPE = 100;

const GLOBAL = '';

export class Faults {
  /** Faults by scope (an app id, or GLOBAL), each list in id order: a request reads two lists, never every app's. */
  private readonly scopes = new Map<string, Fault[]>();
  private nextId = 1;
  private readonly random: Random;

  constructor(seed: number) {
    // Stryker disable next-line StringLiteral: equivalent, any name gives a stream of its own for the seed
    this.random = new Random(hashSeed(seed, 'faults'));
  }

  /** Adds a fault; `409 conflict` when its scope already holds MAX_FAULTS_PER_SCOPE. */
  add(spec: FaultSpec): Fault {
    const scope = spec.app ?? GLOBAL;
    const list = this.scopes.get(scope) ?? [];
    if (list.length >= MAX_FAULTS_PER_SCOPE) {
      throw apiError('conflict', `${spec.app === undefined ? 'The faults for every app already hold' : `The app "${spec.app}" already holds`} ${MAX_FAULTS_PER_SCOPE} faults, the most the mock keeps; remove one first (DELETE /__admin/faults/{id} or DELETE /__admin/faults).`, 'app');
    }
    const fault: Fault = { ...spec, id: this.nextId++, hits: 0 };
    this.scopes.set(scope, [...list, fault]);
    return { ...fault };
  }

  all(app?: string): Fault[] {
    const lists = app === undefined ? [...this.scopes.values()] : [this.scopes.get(app) ?? []];
    return lists
      .flat()
      .sort((a, b) => a.id - b.id)
      .map((f) => ({ ...f }));
  }

  /** Removes a fault; when `app` is given, only one of that app's. */
  remove(id: number, app?: string): boolean {
    for (const [scope, list] of app === undefined ? this.scopes : [[app, this.scopes.get(app) ?? []] as const]) {
      const kept = list.filter((f) => f.id !== id);
      if (kept.length !== list.length) {
        this.keep(scope, kept);
        return true;
      }
    }
    return false;
  }

  /** Removes every fault, or those of one app; returns how many. */
  clear(app?: string): number {
    if (app !== undefined) {
      const n = this.scopes.get(app)?.length ?? 0;
      this.scopes.delete(app);
      return n;
    }
    let n = 0;
    for (const list of this.scopes.values()) n += list.length;
    this.scopes.clear();
    return n;
  }

  /**
   * The combined effect of every fault that applies to this request, in the order they were added;
   * counts the hits. `random`: the app's own stream of draws, so one app's draws never depend on
   * another's traffic.
   */
  effects(key: RequestKey, random: Random = this.random): FaultEffects {
    const global = this.scopes.get(GLOBAL) ?? [];
    const own = this.scopes.get(key.app) ?? [];
    if (global.length === 0 && own.length === 0) return NO_EFFECTS;
    const out: FaultEffects = { ...NO_EFFECTS };
    // The two lists merged by id: the first added wins `error`, and the draws keep one order.
    // Stryker disable next-line BooleanLiteral: equivalent, forced true the lists are filtered with nothing spent in them
    let spent = false;
    for (let g = 0, o = 0; ; ) {
      const a = global[g];
      const b = own[o];
      // Stryker disable next-line EqualityOperator: equivalent, `<=` too: fault ids are unique across the lists
      const f = b === undefined || (a !== undefined && a.id < b.id) ? a : b;
      if (f === undefined) break;
      if (f === a) g++;
      else o++;
      if (!applies(f, key)) continue;
      if (f.fraction !== undefined && random.next() >= f.fraction) continue;
      f.hits++;
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent when forced true (or `||`), as `spent` above
      if (f.count !== undefined && f.hits >= f.count) spent = true;
      if (f.latency_ms !== undefined) {
        const max = f.latency_max_ms ?? f.latency_ms;
        out.latencyMs += f.latency_ms + Math.floor(random.next() * (max - f.latency_ms + 1));
      }
      out.error ??= f.error;
      out.rateLimit ||= f.rate_limit === true;
      out.dropRateLimitHeaders ||= f.drop_rate_limit_headers === true;
    }
    // Stryker disable next-line ConditionalExpression: equivalent when forced true, as `spent` above
    if (spent) {
      const live = (f: Fault): boolean => f.count === undefined || f.hits < f.count;
      this.keep(GLOBAL, global.filter(live));
      this.keep(key.app, own.filter(live));
    }
    return out;
  }

  private keep(scope: string, list: Fault[]): void {
    // Stryker disable next-line ConditionalExpression: equivalent, forced false an empty list stays and reads as none (its app's drop clears it)
    if (list.length === 0) this.scopes.delete(scope);
    else this.scopes.set(scope, list);
  }
}

/** Whether a fault of the request's scope (its app's, or every app's) applies to it. */
function applies(f: Fault, k: RequestKey): boolean {
  if (f.operation_id !== undefined && f.operation_id !== k.operationId) return false;
  if (f.method !== undefined && f.method.toUpperCase() !== k.method) return false;
  if (f.path !== undefined && (f.path.endsWith('*') ? !k.path.startsWith(f.path.slice(0, -1)) : f.path !== k.path)) return false;
  return true;
}
