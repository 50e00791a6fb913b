// The contract report: per operation, how often a run's requests called it, the statuses and
// error codes they got and the warnings they caused, for the whole run and per app. A reset or a
// seed keeps it (it is about the run, not the data); only `clear` forgets it. Its size is bounded
// by the operations, statuses and codes there are, whatever the traffic: per app it is kept while
// the app is, and the run's total keeps what evicted apps added.

import type { RequestWarnings } from '../core/warnings.js';

export interface OperationTally {
  calls: number;
  statuses: Record<string, number>;
  errors: Record<string, number>;
  warnings: Record<string, number>;
  /** How many of the warnings were muted (for the app or the process). */
  muted: number;
}

type Tallies = Map<string, OperationTally>;

const bump = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};

function add(tallies: Tallies, operationId: string, status: number, codes: readonly string[] | undefined, warnings: RequestWarnings | undefined): void {
  let t = tallies.get(operationId);
  if (!t) {
    t = { calls: 0, statuses: {}, errors: {}, warnings: {}, muted: 0 };
    tallies.set(operationId, t);
  }
  t.calls++;
  bump(t.statuses, String(status));
  for (const code of codes ?? []) bump(t.errors, code);
  for (const w of warnings?.list ?? []) {
    bump(t.warnings, w.code);
    if (warnings?.isMuted(w.code)) t.muted++;
  }
}

export class ContractReport {
  private total: Tallies = new Map();
  private readonly perApp = new Map<string, Tallies>();

  record(app: string, operationId: string, status: number, codes: readonly string[] | undefined, warnings: RequestWarnings | undefined): void {
    add(this.total, operationId, status, codes, warnings);
    let mine = this.perApp.get(app);
    if (!mine) {
      mine = new Map();
      this.perApp.set(app, mine);
    }
    add(mine, operationId, status, codes, warnings);
  }

  /** The run's tallies, or one app's (undefined: the app made no request since the last clear). */
  tallies(app?: string): ReadonlyMap<string, OperationTally> | undefined {
    return app === undefined ? this.total : this.perApp.get(app);
  }

  /** An evicted app's own tallies go; the run's total keeps them. */
  forgetApp(app: string): void {
    this.perApp.delete(app);
  }

  /** Forgets one app's tallies (and takes them out of the total), or everything. */
  clear(app?: string): void {
    if (app === undefined) {
      this.total = new Map();
      this.perApp.clear();
      return;
    }
    const mine = this.perApp.get(app);
    if (!mine) return;
    this.perApp.delete(app);
    for (const [op, t] of mine) {
      const all = this.total.get(op);
      // Stryker disable next-line ConditionalExpression: equivalent when forced false, an app's operations are in the total (recorded and cleared together)
      if (!all) continue;
      all.calls -= t.calls;
      all.muted -= t.muted;
      for (const part of ['statuses', 'errors', 'warnings'] as const) {
        for (const [k, n] of Object.entries(t[part])) {
          const left = (all[part][k] ?? 0) - n;
          if (left > 0) all[part][k] = left;
          else delete all[part][k];
        }
      }
      if (all.calls <= 0) this.total.delete(op);
    }
  }
}
