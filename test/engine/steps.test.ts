// The sliced runner's pieces: the sort in steps orders as Array.prototype.sort does (stable, every
// length around the run size), pauses every STEP_RECORDS items, and the sliced runner gives the
// event loop back between slices and returns what the steps return.

import { describe, expect, it } from 'vitest';
import { each, runSteps, runStepsSliced, sortSteps, STEP_RECORDS, type Progress, type Steps } from '../../src/engine/steps.js';
import { Random } from '../../src/core/random.js';

interface Item {
  key: number;
  order: number;
}

const byKey = (a: Item, b: Item) => a.key - b.key;

describe('sortSteps', () => {
  for (const n of [0, 1, 2, STEP_RECORDS - 1, STEP_RECORDS, STEP_RECORDS + 1, 2 * STEP_RECORDS, 3 * STEP_RECORDS + 7, 9 * STEP_RECORDS + 123]) {
    it(`sorts ${n} items as the native sort does, equal keys in their first order`, () => {
      const random = new Random(n + 1);
      // Few distinct keys: many ties, so stability shows.
      const items: Item[] = Array.from({ length: n }, (_, order) => ({ key: random.int(Math.max(1, n >> 3)), order }));
      const native = [...items].sort(byKey);
      const stepped = [...items];
      const progress: Progress[] = [];
      runSteps(sortSteps('sorting', stepped, byKey), (p) => progress.push(p));
      expect(stepped).toEqual(native);
      for (const p of progress) {
        expect(p.phase).toBe('sorting');
        expect(p.total).toBe(n);
        expect(p.done).toBeLessThanOrEqual(n);
      }
    });
  }

  it('pauses at least once per run of STEP_RECORDS items, in each pass', () => {
    const n = 4 * STEP_RECORDS;
    const items = Array.from({ length: n }, (_, i) => ({ key: n - i, order: i }));
    let pauses = 0;
    runSteps(sortSteps('sorting', items, byKey), () => pauses++);
    // 4 runs sorted, then two merge passes of n items each.
    expect(pauses).toBe(4 + 2 * 4);
    expect(items.map((x) => x.key)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });
});

describe('each', () => {
  it('visits every item with its index and pauses after every STEP_RECORDS', () => {
    const items = Array.from({ length: 2 * STEP_RECORDS + 3 }, (_, i) => i * 2);
    const seen: number[] = [];
    const progress: Progress[] = [];
    runSteps(
      each('walking', items, (x, i) => {
        expect(x).toBe(i * 2);
        seen.push(i);
      }),
      (p) => progress.push(p),
    );
    expect(seen).toHaveLength(items.length);
    expect(progress).toEqual([
      { phase: 'walking', done: STEP_RECORDS, total: items.length },
      { phase: 'walking', done: 2 * STEP_RECORDS, total: items.length },
    ]);
  });
});

describe('runStepsSliced', () => {
  it('lets a timer run between slices of long work, and returns what the steps return', async () => {
    function* slow(): Steps<string> {
      for (let i = 0; i < 40; i++) {
        const end = performance.now() + 2;
        while (performance.now() < end);
        yield { phase: 'busy', done: i + 1, total: 40 };
      }
      return 'made';
    }
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    const result = await runStepsSliced(slow());
    order.push(result);
    expect(order).toEqual(['timer', 'made']);
  });

  it('passes on what the steps throw', async () => {
    function* failing(): Steps<void> {
      yield { phase: 'busy', done: 1, total: 2 };
      throw new Error('bad document');
    }
    await expect(runStepsSliced(failing())).rejects.toThrow('bad document');
  });
});
