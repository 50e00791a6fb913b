// Reading a workspace through the v1 API, a phase at a time: scroll for users, leads and
// companies; lists for admins and teams, tags, segments and conversations (each read whole for
// its parts); per person, notes and events. Each finished phase is written to a partial file, so
// an interrupted import resumes after the last finished phase (a scroll cannot be resumed: the
// API lets its cursor expire).

import { existsSync, readFileSync, rmSync } from 'node:fs';
import { writeWhole } from '../write-whole.js';
import { createHash } from 'node:crypto';
import { ImportError, type Upstream } from './upstream.js';

export type Raw = Record<string, unknown>;

export const PHASES = ['admins', 'tags', 'segments', 'companies', 'users', 'leads', 'conversations', 'notes', 'events'] as const;
export type Phase = (typeof PHASES)[number];
export type Read = Record<Phase, Raw[]>;

interface Saved {
  /** The upstream and token the phases were read with (a hash: the file holds no token). */
  source: string;
  phases: Partial<Record<Phase, Raw[]>>;
}

const list = (body: unknown, key: string): Raw[] => ((body as Record<string, unknown>)[key] as Raw[] | undefined) ?? [];
const nextOf = (body: unknown): string | null => {
  const next = ((body as { pages?: { next?: unknown } }).pages ?? {}).next;
  return typeof next === 'string' && next !== '' ? next : null;
};

async function scroll(up: Upstream, path: string, key: string, progress: (n: number) => void): Promise<Raw[]> {
  const out: Raw[] = [];
  let param: string | undefined;
  for (;;) {
    const body = await up.get<Raw>(param === undefined ? path : `${path}?scroll_param=${encodeURIComponent(param)}`);
    const items = list(body, key);
    if (items.length === 0) return out;
    out.push(...items);
    progress(out.length);
    if (typeof body.scroll_param !== 'string' || body.scroll_param === '') throw new ImportError(`${path}: a page of the scroll came without its scroll_param`);
    param = body.scroll_param;
  }
}

async function paged(up: Upstream, first: string, key: string, progress?: (n: number) => void): Promise<Raw[]> {
  const out: Raw[] = [];
  for (let next: string | null = first; next !== null; ) {
    const body: Raw = await up.get<Raw>(next);
    out.push(...list(body, key));
    progress?.(out.length);
    next = nextOf(body);
  }
  return out;
}

const idOf = (x: Raw): string => String(x.id);

/** Each phase, given what the ones before it read. */
const READERS: Record<Phase, (up: Upstream, done: Saved['phases'], progress: (n: number) => void) => Promise<Raw[]>> = {
  // Admins and teams together, as the fixture lists them (a team is marked by its type).
  admins: async (up) => [...list(await up.get<Raw>('/admins'), 'admins').filter((a) => a.type !== 'team'), ...list(await up.get<Raw>('/teams'), 'teams').map((t) => ({ ...t, type: 'team' }))],
  tags: (up) => up.get<Raw>('/tags').then((b) => list(b, 'tags')),
  segments: async (up) => {
    const byId = new Map<string, Raw>();
    for (const path of ['/segments', '/segments?type=company']) for (const s of list(await up.get<Raw>(path), 'segments')) byId.set(idOf(s), s);
    return [...byId.values()];
  },
  companies: (up, _done, progress) => scroll(up, '/companies/scroll', 'companies', progress),
  users: (up, _done, progress) => scroll(up, '/users/scroll', 'users', progress),
  leads: (up, _done, progress) => scroll(up, '/contacts/scroll', 'contacts', progress),
  conversations: async (up, _done, progress) => {
    const heads = await paged(up, '/conversations?per_page=60', 'conversations');
    const out: Raw[] = [];
    for (const head of heads) {
      out.push(await up.get<Raw>(`/conversations/${encodeURIComponent(idOf(head))}`));
      progress(out.length);
    }
    return out;
  },
  notes: async (up, done, progress) => {
    const out: Raw[] = [];
    for (const person of [...(done.users ?? []), ...(done.leads ?? [])]) {
      out.push(...(await paged(up, `/notes?id=${encodeURIComponent(idOf(person))}&per_page=60`, 'notes')));
      progress(out.length);
    }
    return out;
  },
  events: async (up, done, progress) => {
    const out: Raw[] = [];
    for (const person of [...(done.users ?? []), ...(done.leads ?? [])]) {
      out.push(...(await paged(up, `/events?type=user&intercom_user_id=${encodeURIComponent(idOf(person))}&per_page=60`, 'events')));
      progress(out.length);
    }
    return out;
  },
};

/** Reads every phase not already in `partialFile` (for the same upstream), saving each as it ends. */
export async function readWorkspace(up: Upstream, token: string, partialFile: string, say: (line: string) => void): Promise<Read> {
  const source = createHash('sha256').update(`${up.base}\u0000${token}`).digest('hex');
  let partial: Saved = { source, phases: {} };
  if (existsSync(partialFile)) {
    let saved: Saved | undefined;
    try {
      saved = JSON.parse(readFileSync(partialFile, 'utf8')) as Saved;
    } catch {
      saved = undefined;
    }
    // Only what the same upstream gave the same token: another workspace's phases would mix in.
    if (saved?.source === source) {
      partial = saved;
      say(`resuming: ${Object.keys(saved.phases).join(', ')} already read (${partialFile})`);
    } else say(`${partialFile} was read from another upstream or with another token: starting over`);
  }
  for (const phase of PHASES) {
    if (partial.phases[phase]) continue;
    let last = 0;
    const progress = (n: number) => {
      const now = performance.now();
      if (now - last < 1000) return;
      last = now;
      say(`${phase}: ${n.toLocaleString('en')} so far`);
    };
    const items = await READERS[phase](up, partial.phases, progress);
    partial.phases[phase] = items;
    say(`${phase}: ${items.length.toLocaleString('en')}`);
    writeWhole(partialFile, JSON.stringify(partial));
  }
  return partial.phases as Read;
}

export const forgetPartial = (partialFile: string): void => rmSync(partialFile, { force: true });
