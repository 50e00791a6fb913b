// AppState.transaction's contract (engine/app-core.ts) for what no route reaches today: every store write queues its
// job last, so no request both queues a job and is then refused. The unit still promises it: a
// refused write takes back the jobs it queued, and once it ends the maps stop recording.

import { describe, expect, it, vi } from 'vitest';
import type { CowMap } from '../../src/engine/cow.js';
import { createStore } from '../../src/setup.js';
import { COLLECTION_NAMES, type AppState } from '../../src/state/app-state.js';
import { enqueueEnrichment } from '../../src/engine/job-queue.js';
import { ADA, GRACE } from '../fixture-ids.js';
import { saveConversation } from '../../src/resources/conversations/indexes.js';

function demo(): AppState {
  const app = createStore().appForToken('demo-token');
  if (!app) throw new Error('no demo app');
  return app;
}

const recording = (app: AppState) => COLLECTION_NAMES.filter((name) => (app.data[name] as CowMap<unknown>).undo !== null);

describe('AppState.transaction', () => {
  it('takes back the jobs a refused write queued, and keeps the ones queued before', () => {
    const app = demo();
    app.transaction(() => enqueueEnrichment(app, ADA, 100));
    const before = [...app.jobs];
    const counter = app.counters.job;
    expect(before.at(-1)).toMatchObject({ kind: 'enrich_customer', customer_id: ADA, id: counter - 1 });
    expect(() =>
      app.transaction(() => {
        enqueueEnrichment(app, GRACE, 50);
        enqueueEnrichment(app, GRACE, 200);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(app.jobs).toEqual(before);
    // What the refused write drew stays drawn: the request sequence, replayed, draws the same ids.
    expect(app.counters.job).toBe(counter + 2);
  });

  it('refuses a transaction begun inside another, and the outer one then takes everything back', () => {
    const app = demo();
    const conversation = [...app.data.conversations.values()][0];
    if (!conversation) throw new Error('no conversation');
    const parts = app.partsTotal;
    const jobs = [...app.jobs];
    const inner = vi.fn();
    expect(() =>
      app.transaction(() => {
        saveConversation(app, { ...conversation, parts: [...conversation.parts, { ...(conversation.parts[0] as (typeof conversation.parts)[number]), id: 'p-outer' }] });
        enqueueEnrichment(app, ADA, 10);
        app.transaction(inner);
      }),
    ).toThrow('a transaction cannot begin inside another');
    expect(inner).not.toHaveBeenCalled();
    expect(app.partsTotal).toBe(parts);
    expect(app.data.conversations.get(conversation.id)?.parts.length).toBe(conversation.parts.length);
    expect(app.jobs).toEqual(jobs);
    expect(recording(app)).toEqual([]);
    // The next unit runs as any: the refusal left none open.
    app.transaction(() => enqueueEnrichment(app, ADA, 30));
    expect(app.jobs).toHaveLength(jobs.length + 1);
  });

  it('stops recording writes once the write stands or is refused', () => {
    const app = demo();
    expect(recording(app)).toEqual([]);
    app.transaction(() => app.data.tallies.set('probe', 1));
    expect(recording(app)).toEqual([]);
    expect(() =>
      app.transaction(() => {
        app.data.tallies.set('probe', 2);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(recording(app)).toEqual([]);
    expect(app.data.tallies.get('probe')).toBe(1);
  });
});
