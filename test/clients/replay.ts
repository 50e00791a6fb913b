// Replays of the official clients' wire forms: each call exactly as that client sends it (method,
// request-target with its slashes, headers, body bytes), against a real listening mock, checked
// against what the client's parser reads and against the OpenAPI document. The calls of one file
// share one fresh store and run in order, so a file can create a record and then read it back.
//
// A replay file (test/clients/replays/<client>.json) holds:
//   client, release, repository, commit: where the wire forms were read;
//   headers: what the client sends on every request ({{basic}} is its Basic credential);
//   calls[]: { name, source, request: { method, target, headers?, json? | body? },
//              expect: { status, json?: { "<dotted.path>": matcher }, warnings?: [code] (X-Mock-Warning) },
//              capture?: { "<name>": "<dotted.path>" }, pending?: "<known gap>",
//              settled?: "<the mock's decision, where the real answer is inferred>" }
// A matcher is a literal (compared exactly) or a type test: ":string", ":integer", ":number",
// ":boolean", ":null", ":array", ":object", ":absent", or several joined by "|". `{{name}}` in a
// target, header or body is a captured value; `a.length` of an array is its length.

import { request as httpRequest } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { Clock } from '../../src/core/clock.js';
import type { RunningServer } from '../../src/server.js';
import { createStore, type StoreSetup } from '../../src/setup.js';
import { listenChecked } from '../client/official.js';
import { TEST_NOW, warningCodesOf } from '../helpers.js';

export type Matcher = string | number | boolean | null;

export interface ReplayCall {
  name: string;
  source: string;
  request: { method: string; target: string; headers?: Record<string, string | null>; json?: unknown; body?: string };
  expect: { status: number; json?: Record<string, Matcher>; warnings?: string[] };
  capture?: Record<string, string>;
  /**
   * A known gap: how the mock's answer still differs from the real API's. The suite expects the
   * call to fail while this is set, so a fix shows up as a failure until the mark is removed.
   */
  pending?: string;
  /** The real answer is inferred, not recorded: `expect` is the mock's documented decision, which this says. */
  settled?: string;
}

export interface ReplayFile {
  client: string;
  release: string;
  repository: string;
  commit?: string;
  headers: Record<string, string>;
  calls: ReplayCall[];
}

export const REPLAY_DIR = new URL('./replays/', import.meta.url);

export function replayFiles(): { file: string; replay: ReplayFile }[] {
  return readdirSync(REPLAY_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, replay: JSON.parse(readFileSync(new URL(file, REPLAY_DIR), 'utf8')) as ReplayFile }));
}

/** The value at a dotted path; `length` of an array is its length. */
export function at(value: unknown, path: string): { found: boolean; value?: unknown } {
  let cur: unknown = value;
  for (const seg of path.split('.')) {
    if (Array.isArray(cur) && seg === 'length') cur = cur.length;
    else if (cur !== null && typeof cur === 'object' && Object.hasOwn(cur, seg)) cur = (cur as Record<string, unknown>)[seg];
    else return { found: false };
  }
  return { found: true, value: cur };
}

const TYPE_TESTS: Record<string, (v: unknown, found: boolean) => boolean> = {
  string: (v, f) => f && typeof v === 'string',
  integer: (v, f) => f && Number.isInteger(v),
  number: (v, f) => f && typeof v === 'number',
  boolean: (v, f) => f && typeof v === 'boolean',
  null: (v, f) => f && v === null,
  array: (v, f) => f && Array.isArray(v),
  object: (v, f) => f && v !== null && typeof v === 'object' && !Array.isArray(v),
  absent: (_v, f) => !f,
};

/** Why `matcher` fails on the value at `path`, or undefined when it holds. */
export function mismatch(body: unknown, path: string, matcher: Matcher): string | undefined {
  const { found, value } = at(body, path);
  if (typeof matcher === 'string' && matcher.startsWith(':')) {
    const types = matcher.slice(1).split('|');
    for (const t of types) {
      const test = TYPE_TESTS[t];
      if (!test) return `unknown type test ${t}`;
      if (test(value, found)) return undefined;
    }
    return `${path}: expected ${matcher}, got ${found ? JSON.stringify(value)?.slice(0, 120) : 'nothing'}`;
  }
  if (found && value === matcher) return undefined;
  return `${path}: expected ${JSON.stringify(matcher)}, got ${found ? JSON.stringify(value)?.slice(0, 120) : 'nothing'}`;
}

export function fill(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`no value captured for ${whole}`);
    return v;
  });
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/** Sends one request exactly as given: the target is written to the request line unchanged. */
export function send(port: number, method: string, target: string, headers: Record<string, string>, body: string | undefined): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined) h['content-length'] = String(Buffer.byteLength(body));
    const req = httpRequest({ host: '127.0.0.1', port, method, path: target, headers: h, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface ReplayMock {
  server: RunningServer;
  port: number;
  close(): Promise<void>;
}

/** A real listening mock whose every answer is checked against the OpenAPI document. */
export async function replayMock(setup: StoreSetup = {}): Promise<ReplayMock> {
  const clock = setup.clock ?? new Clock({ start: TEST_NOW, frozen: true });
  // A client's whole inventory runs in one frozen rate-limit window.
  const store = createStore({ rateLimit: 60_000, ...setup, clock });
  const server = await listenChecked(store, clock);
  return { server, port: Number(new URL(server.url).port), close: () => server.close() };
}

export const basic = (token: string): string => `Basic ${Buffer.from(`${token}:`).toString('base64')}`;

/** What `{{…}}` in a replay can name before anything is captured: the demo app's token, and its Basic credential. */
export const startVars = (): Record<string, string> => ({ basic: basic('demo-token'), token: 'demo-token' });

/** Runs one call; returns the problems found (empty when the answer is what the client needs). */
export async function replayCall(mock: ReplayMock, file: ReplayFile, call: ReplayCall, vars: Record<string, string>): Promise<{ problems: string[]; reply: Reply }> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...file.headers, ...call.request.headers })) if (v !== null && v !== undefined) headers[k.toLowerCase()] = fill(v, vars);
  const body = call.request.body !== undefined ? fill(call.request.body, vars) : call.request.json !== undefined ? fill(JSON.stringify(call.request.json), vars) : undefined;
  const reply = await send(mock.port, call.request.method, fill(call.request.target, vars), headers, body);
  const problems: string[] = [];
  if (reply.status !== call.expect.status) problems.push(`status ${reply.status}, expected ${call.expect.status}: ${reply.text.slice(0, 300)}`);
  for (const [path, matcher] of Object.entries(call.expect.json ?? {})) {
    const why = mismatch(reply.json, path, matcher);
    if (why) problems.push(why);
  }
  if (call.expect.warnings !== undefined) {
    const raw = reply.headers['x-mock-warning'];
    const codes = warningCodesOf(Array.isArray(raw) ? raw.join(', ') : raw).sort();
    const want = [...call.expect.warnings].sort();
    if (JSON.stringify(codes) !== JSON.stringify(want)) problems.push(`warnings ${JSON.stringify(codes)}, expected ${JSON.stringify(want)}`);
  }
  for (const [name, path] of Object.entries(call.capture ?? {})) {
    const { found, value } = at(reply.json, path);
    if (found && (typeof value === 'string' || typeof value === 'number')) vars[name] = String(value);
    else problems.push(`capture ${name}: nothing at ${path}`);
  }
  return { problems, reply };
}
