/* global process, console, URL */
// Folds narrowed runs into the committed incremental file (docs/mutation.md, "Narrow it").
//
//   node test/mutation/merge-incremental.mjs <report.json>... [--into reports/stryker-incremental.json]
//
// Reports are taken in the order given, a later one winning (a batch's incremental file or its
// JSON report). A file whose source is the one stored takes the report's mutants in place of the
// stored ones at the same place (a kill stands, as `survivors.mjs score` counts): a ranged re-run
// of an unchanged file updates its lines and keeps the rest. A file whose source changed since
// takes the report's entry whole, so merge whole-file runs of a changed file (a ranged one would
// leave only its lines: the script says so). Test ids are per run: each report's tests take the
// id of the kept test of the same file and name, or a new one past those kept. Paths are the
// project root's, wherever it is run from.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

const args = process.argv.slice(2);
const at = args.indexOf('--into');
const into = at >= 0 ? args[at + 1] : join(root, 'reports/stryker-incremental.json');
const inputs = args.filter((_, i) => at < 0 || (i !== at && i !== at + 1)).map((f) => resolve(f));
if (inputs.length === 0 || into === undefined) {
  console.error('usage: merge-incremental.mjs <report.json>... [--into <incremental.json>]');
  process.exit(2);
}

const target = JSON.parse(readFileSync(into, 'utf8'));
target.testFiles ??= {};
const KILLED = new Set(['Killed', 'Timeout']);
const place = (m) => `${m.location.start.line}:${m.location.start.column}:${m.location.end.line}:${m.location.end.column}|${m.mutatorName}|${m.replacement}`;
let nextId = 1 + Math.max(-1, ...Object.values(target.testFiles).flatMap((f) => f.tests.map((t) => Number(t.id))));

for (const input of inputs) {
  const report = JSON.parse(readFileSync(input, 'utf8'));
  const renamed = new Map();
  for (const [file, { tests, source }] of Object.entries(report.testFiles ?? {})) {
    const kept = (target.testFiles[file] ??= { tests: [], source });
    // The newer text: Stryker compares it with the file as it is to tell which tests changed.
    if (source !== undefined) kept.source = source;
    // A test is known by its file and name: one kept already keeps its id.
    const byName = new Map(kept.tests.map((t) => [t.name, t]));
    for (const t of tests) {
      const same = byName.get(t.name);
      const id = same?.id ?? String(nextId++);
      renamed.set(t.id, id);
      if (same) Object.assign(same, { ...t, id });
      else kept.tests.push({ ...t, id });
    }
  }
  const ids = (list) => list?.map((id) => renamed.get(id)).filter((id) => id !== undefined);
  for (const [file, entry] of Object.entries(report.files)) {
    const mutants = entry.mutants.map((m) => ({ ...m, killedBy: ids(m.killedBy), coveredBy: ids(m.coveredBy) }));
    const stored = target.files[file];
    if (stored?.source !== entry.source) {
      if (stored && mutants.length < stored.mutants.length) console.log(`  ${file}: changed since the stored run; now ${mutants.length} mutants (were ${stored.mutants.length}): a ranged run leaves only its lines`);
      target.files[file] = { ...entry, mutants };
      continue;
    }
    // As survivors.mjs counts: a kill stands against a later run that missed it (a narrower test set).
    const kept = new Map(stored.mutants.map((m) => [place(m), m]));
    for (const m of mutants) {
      const before = kept.get(place(m));
      if (before && KILLED.has(before.status) && !KILLED.has(m.status) && m.status !== 'Ignored') continue;
      kept.set(place(m), m);
    }
    stored.mutants = [...kept.values()];
  }
  console.log(`${input}: ${Object.keys(report.files).join(', ')}`);
}

// Files moved or deleted since are dropped: their results can never be reused.
for (const file of Object.keys(target.files)) if (!existsSync(join(root, file))) delete target.files[file];

// Tests no kept mutant names any more are dropped, so the file does not grow with every merge.
const named = new Set(Object.values(target.files).flatMap((f) => f.mutants.flatMap((m) => [...(m.killedBy ?? []), ...(m.coveredBy ?? [])])));
for (const [file, entry] of Object.entries(target.testFiles)) {
  entry.tests = entry.tests.filter((t) => named.has(t.id));
  if (entry.tests.length === 0) delete target.testFiles[file];
}
// Mutant ids are per run too: numbered again, once, across the merged files.
let mutantId = 0;
for (const entry of Object.values(target.files)) for (const m of entry.mutants) m.id = String(mutantId++);
writeFileSync(into, JSON.stringify(target));
