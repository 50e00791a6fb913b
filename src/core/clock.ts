// The one source of time. Timestamps, rate-limit windows and async jobs all read it, so tests can
// freeze or move time instead of sleeping, and a running server can be steered through /__admin/clock.

/**
 * 9999-12-31T23:59:59Z, the largest timestamp a fixture accepts (schemas/fields.ts MAX_TIME): the
 * clock never reads later, so whatever it stamps stays exportable and seedable.
 */
export const CLOCK_MAX_SECONDS = 253_402_300_799;

export interface ClockState {
  now: number;
  frozen: boolean;
}

export interface ClockOptions {
  /** Unix seconds to start at; defaults to the wall clock. */
  start?: number;
  /** A frozen clock only moves when set or advanced. */
  frozen?: boolean;
  /** Wall-clock source in milliseconds; injectable for tests of the running mode. */
  wall?: () => number;
}

export class Clock {
  private readonly wall: () => number;
  private offsetMs: number;
  private frozenAtMs: number | null;

  constructor(options: ClockOptions = {}) {
    this.wall = options.wall ?? (() => Date.now());
    const startMs = options.start === undefined ? this.wall() : options.start * 1000;
    this.offsetMs = startMs - this.wall();
    this.frozenAtMs = options.frozen ? startMs : null;
  }

  /** A running clock that reaches CLOCK_MAX_SECONDS stays there. */
  nowMs(): number {
    return Math.min(this.frozenAtMs ?? this.wall() + this.offsetMs, CLOCK_MAX_SECONDS * 1000);
  }

  /** Unix seconds, as every timestamp of the API is. */
  now(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  set(seconds: number): void {
    const ms = seconds * 1000;
    if (this.frozenAtMs !== null) this.frozenAtMs = ms;
    else this.offsetMs = ms - this.wall();
  }

  advance(seconds: number): void {
    this.set(this.nowMs() / 1000 + seconds);
  }

  freeze(frozen: boolean): void {
    if (frozen && this.frozenAtMs === null) this.frozenAtMs = this.nowMs();
    if (!frozen && this.frozenAtMs !== null) {
      this.offsetMs = this.frozenAtMs - this.wall();
      this.frozenAtMs = null;
    }
  }

  state(): ClockState {
    return { now: this.now(), frozen: this.frozenAtMs !== null };
  }
}
