// Every official client's calls, replayed as that client sends them (test/clients/replay.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayCall, replayFiles, replayMock, startVars, type ReplayMock } from './replay.js';

for (const { file, replay } of replayFiles()) {
  describe(`${replay.client} ${replay.release} (${file})`, () => {
    let mock: ReplayMock;
    const vars: Record<string, string> = startVars();
    beforeAll(async () => {
      mock = await replayMock();
    });
    afterAll(() => mock.close());
    for (const call of replay.calls) {
      // A known gap (issue 31) is expected to fail until the mock answers as the real API did.
      const test = call.pending === undefined ? it : it.fails;
      test(`${call.name} (${call.source})`, async () => {
        const { problems } = await replayCall(mock, replay, call, vars);
        expect(problems).toEqual([]);
      });
    }
  });
}
