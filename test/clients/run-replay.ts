// Prints each call of one replay file and what its answer lacks: `npx tsx test/clients/run-replay.ts FILE`.
// The test suite runs the same calls (replays.test.ts); this is for writing a replay file.

import { readFileSync } from 'node:fs';
import { replayCall, replayMock, startVars, type ReplayFile } from './replay.js';

const path = process.argv[2];
if (!path) {
  console.error('usage: tsx test/clients/run-replay.ts FILE');
  process.exit(2);
}
const file = JSON.parse(readFileSync(path, 'utf8')) as ReplayFile;
const mock = await replayMock();
const vars: Record<string, string> = startVars();
let failed = 0;
for (const call of file.calls) {
  let problems: string[];
  let warn = '';
  try {
    const out = await replayCall(mock, file, call, vars);
    problems = out.problems;
    const w = out.reply.headers['x-mock-warning'];
    if (w !== undefined) warn = ` warnings: ${String(w)}`;
  } catch (err) {
    problems = [`threw: ${(err as Error).message.slice(0, 400)}`];
  }
  if (problems.length > 0) failed++;
  console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${call.name} ${call.request.method} ${call.request.target}${warn}`);
  for (const p of problems) console.log(`       ${p}`);
}
console.log(`${file.calls.length - failed} passed, ${failed} failed`);
await mock.close();
process.exit(0);
