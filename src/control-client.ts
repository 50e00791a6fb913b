// A typed client of the control plane, for test runners talking to a mock over HTTP.

import type { FixtureDocument, FixtureInput } from './fixtures/fixture-doc.js';
import type { Fault, FaultSpec } from './admin/fault-rules.js';
import type { JournalEntry, JournalFilter } from './admin/journal-log.js';
import type { ContractReportBody } from './admin/report.js';

/** Which app a per-app call is about: its id, or one of its tokens (a `test_` token provisions it). */
export type AppRef = { app: string } | { token: string };

export interface ClockState {
  now: number;
  frozen: boolean;
}

/**
 * What reset, seed and restore do with the app's id and random streams: `rewind` (default) puts them
 * back with the state, so the same requests give byte-identical responses; `fresh` keeps them
 * running, so ids handed out before are never handed out again.
 */
export interface IdsOption {
  ids?: 'rewind' | 'fresh';
}

const idsQuery = (options: IdsOption): Record<string, string> => (options.ids === undefined ? {} : { ids: options.ids });

export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`control plane answered ${status}: ${JSON.stringify(body)}`);
  }
}

export class ControlClient {
  /** `adminToken`: the mock's --admin-token, when it was started with one. */
  constructor(
    readonly baseUrl: string,
    private readonly options: { adminToken?: string } = {},
  ) {}

  private async call<T>(method: string, path: string, ref?: AppRef, body?: unknown, query: Record<string, string> = {}): Promise<T> {
    const url = new URL(`/__admin${path}`, this.baseUrl);
    if (ref && 'app' in ref) url.searchParams.set('app', ref.app);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (ref && 'token' in ref) headers.authorization = `Bearer ${ref.token}`;
    if (this.options.adminToken !== undefined) headers['x-admin-token'] = this.options.adminToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const parsed = (await res.json()) as unknown;
    if (!res.ok) throw new ControlError(res.status, parsed);
    return parsed as T;
  }

  health() {
    return this.call<{ status: 'ok'; seed: number; apps: string[]; provisioned_apps: number; clock: ClockState }>('GET', '/health');
  }
  reset(ref?: AppRef, options: IdsOption = {}) {
    return this.call<{ reset: string[] }>('POST', '/reset', ref, undefined, idsQuery(options));
  }
  seed(document: FixtureInput, mode: 'replace' | 'merge' = 'replace', options: IdsOption = {}) {
    return this.call<{ app: string; mode: string; counts: Record<string, number> }>('POST', '/seed', undefined, document, { mode, ...idsQuery(options) });
  }
  state(ref: AppRef) {
    return this.call<FixtureDocument>('GET', '/state', ref);
  }
  snapshot(ref: AppRef, name: string) {
    return this.call<{ app: string; name: string; created_at: number }>('POST', '/snapshots', ref, { name });
  }
  restore(ref: AppRef, name: string, options: IdsOption = {}) {
    return this.call<{ app: string; name: string; created_at: number }>('POST', `/snapshots/${encodeURIComponent(name)}/restore`, ref, undefined, idsQuery(options));
  }
  snapshots(ref: AppRef) {
    return this.call<{ snapshots: { app: string; name: string; created_at: number }[] }>('GET', '/snapshots', ref);
  }
  deleteSnapshot(ref: AppRef, name: string) {
    return this.call<{ deleted: string }>('DELETE', `/snapshots/${encodeURIComponent(name)}`, ref);
  }
  async requests(filter: Omit<JournalFilter, 'app'> = {}, ref?: AppRef): Promise<JournalEntry[]> {
    const query = Object.fromEntries(Object.entries(filter).map(([k, v]) => [k, String(v)]));
    return (await this.call<{ requests: JournalEntry[] }>('GET', '/requests', ref, undefined, query)).requests;
  }
  async countRequests(filter: Omit<JournalFilter, 'app' | 'limit'> = {}, ref?: AppRef): Promise<number> {
    return (await this.call<{ count: number }>('POST', '/requests/count', ref, filter)).count;
  }
  /** The contract report: the whole run's, or one app's (src/admin/report.ts). */
  report(ref?: AppRef): Promise<ContractReportBody> {
    return this.call<ContractReportBody>('GET', '/report', ref);
  }
  clearReport(ref?: AppRef) {
    return this.call<{ cleared: string }>('DELETE', '/report', ref);
  }
  clearRequests(ref?: AppRef) {
    return this.call<{ cleared: number }>('DELETE', '/requests', ref);
  }
  clock() {
    return this.call<ClockState>('GET', '/clock');
  }
  setClock(change: { now?: number; advance?: number; frozen?: boolean }) {
    return this.call<ClockState>('POST', '/clock', undefined, change);
  }
  addFault(spec: Omit<FaultSpec, 'app'>, ref?: AppRef) {
    return this.call<Fault>('POST', '/faults', ref, spec);
  }
  async faults(ref?: AppRef): Promise<Fault[]> {
    return (await this.call<{ faults: Fault[] }>('GET', '/faults', ref)).faults;
  }
  clearFaults(ref?: AppRef) {
    return this.call<{ removed: number }>('DELETE', '/faults', ref);
  }
  runJobs(ref?: AppRef) {
    return this.call<{ ran: number }>('POST', '/jobs/run', ref);
  }
}
