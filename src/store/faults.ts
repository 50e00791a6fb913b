// Injected faults: latency, error answers, a forced 429, and dropped rate-limit headers (the real
// service's occasional omission), for one app or all, for the next N matching requests or a seeded
// fraction of them. Deterministic: every random draw comes from the seeded fault stream of the app asked.

import type { ErrorCode } from '../core/errors.js';
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

export class Faults {
  private list: Fault[] = [];
  private nextId = 1;
  private readonly random: Random;

  /** `streamOf`: the app's own stream of draws, so one app's draws never depend on another's traffic. */
  constructor(
    seed: number,
    private readonly streamOf: (appId: string) => Random | undefined = () => undefined,
  ) {
    this.random = new Random(hashSeed(seed, 'faults'));
  }

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: this.nextId++, hits: 0 };
    this.list.push(fault);
    return { ...fault };
  }

  all(app?: string): Fault[] {
    return this.list.filter((f) => app === undefined || f.app === app).map((f) => ({ ...f }));
  }

  /** Removes a fault; when `app` is given, only one of that app's. */
  remove(id: number, app?: string): boolean {
    const before = this.list.length;
    this.list = this.list.filter((f) => f.id !== id || (app !== undefined && f.app !== app));
    return this.list.length !== before;
  }

  /** Removes every fault, or those of one app; returns how many. */
  clear(app?: string): number {
    const before = this.list.length;
    this.list = app === undefined ? [] : this.list.filter((f) => f.app !== app);
    return before - this.list.length;
  }

  /** The combined effect of every fault that applies to this request; counts the hits. */
  effects(key: RequestKey): FaultEffects {
    if (this.list.length === 0) return NO_EFFECTS;
    const out: FaultEffects = { ...NO_EFFECTS };
    const random = this.streamOf(key.app) ?? this.random;
    for (const f of this.list) {
      if (!applies(f, key)) continue;
      if (f.fraction !== undefined && random.next() >= f.fraction) continue;
      f.hits++;
      if (f.latency_ms !== undefined) {
        const max = f.latency_max_ms ?? f.latency_ms;
        out.latencyMs += f.latency_ms + Math.floor(random.next() * (max - f.latency_ms + 1));
      }
      out.error ??= f.error;
      out.rateLimit ||= f.rate_limit === true;
      out.dropRateLimitHeaders ||= f.drop_rate_limit_headers === true;
    }
    this.list = this.list.filter((f) => f.count === undefined || f.hits < f.count);
    return out;
  }
}

function applies(f: Fault, k: RequestKey): boolean {
  if (f.app !== undefined && f.app !== k.app) return false;
  if (f.operation_id !== undefined && f.operation_id !== k.operationId) return false;
  if (f.method !== undefined && f.method.toUpperCase() !== k.method) return false;
  if (f.path !== undefined && (f.path.endsWith('*') ? !k.path.startsWith(f.path.slice(0, -1)) : f.path !== k.path)) return false;
  return true;
}
