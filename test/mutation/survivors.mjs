/* global process, console */
// Re-running only what survived (docs/mutation.md, "Re-running the survivors").
//
//   node test/mutation/survivors.mjs lines <report.json>... [--only <regexp>]
//     the --mutate ranges (file:L-L,...) of every line where a mutant survived or had no coverage,
//     and of every code line written since the report, found in the current sources by their text
//   node test/mutation/survivors.mjs score <report.json>... [--only <regexp>]
//     each file's score on the current sources over several reports (a full run, then re-runs): a
//     mutant counts as killed if any report killed it, as ignored if a later report ignored it (an
//     equivalence mark added since), and not at all if its line is no longer in the source
//
// Reports are Stryker's JSON (reports/mutation/mutation.json, or an incremental file).
import { readFileSync } from 'node:fs';

const [command, ...rest] = process.argv.slice(2);
const only = rest.includes('--only') ? new RegExp(rest[rest.indexOf('--only') + 1]) : undefined;
const reports = rest.filter((a, i) => a !== '--only' && rest[i - 1] !== '--only').map((f) => JSON.parse(readFileSync(f, 'utf8')));
const current = (file) => readFileSync(file, 'utf8').split('\n');
const done = (status) => ['Killed', 'Timeout', 'Ignored', 'CompileError', 'RuntimeError'].includes(status);
const isCode = (line) => !/^\s*($|\/\/|\*|\/\*)/.test(line);

/** Every file of every report, in order, that `--only` keeps. */
function* reportFiles() {
  for (const report of reports) {
    for (const [file, { source, mutants }] of Object.entries(report.files)) if (!only || only.test(file)) yield { file, source, mutants };
  }
}

function lines() {
  const out = new Set();
  for (const { file, source, mutants } of reportFiles()) {
    const before = source.split('\n');
    const now = current(file);
    for (const m of mutants) {
      if (done(m.status)) continue;
      const at = m.location.start.line;
      let best = -1;
      now.forEach((text, i) => {
        if (text === before[at - 1] && (best < 0 || Math.abs(i + 1 - at) < Math.abs(best - at))) best = i + 1;
      });
      // A mutant is re-run only if its whole span is in a range (a block spans lines).
      if (best > 0) out.add(`${file}:${best}-${best + m.location.end.line - at}`);
    }
    const known = new Set(before);
    now.forEach((text, i) => {
      if (!known.has(text) && isCode(text)) out.add(`${file}:${i + 1}-${i + 1}`);
    });
  }
  console.log([...out].join(','));
}

function score() {
  const files = new Map();
  for (const { file, source, mutants } of reportFiles()) {
    const text = source.split('\n');
    const present = new Set(current(file).map((l) => l.trim()));
    const table = files.get(file) ?? new Map();
    files.set(file, table);
    for (const m of mutants) {
      const line = text[m.location.start.line - 1].trim();
      if (!present.has(line)) continue;
      const key = `${line}|${m.location.start.column}|${m.mutatorName}|${m.replacement}`;
      const seen = table.get(key);
      if (!seen) table.set(key, { status: m.status, m, line });
      else if (m.status === 'Ignored') seen.status = 'Ignored';
      else if ((m.status === 'Killed' || m.status === 'Timeout') && seen.status !== 'Ignored') seen.status = m.status;
    }
  }
  for (const [file, table] of files) {
    const counted = [...table.values()].filter((x) => !['Ignored', 'CompileError', 'RuntimeError'].includes(x.status));
    const killed = counted.filter((x) => x.status === 'Killed' || x.status === 'Timeout');
    console.log(`${file}: ${((100 * killed.length) / counted.length).toFixed(1)}% (${killed.length} / ${counted.length})`);
    for (const x of counted) if (!killed.includes(x)) console.log(`  ${x.status} ${x.m.mutatorName} ${JSON.stringify(x.m.replacement ?? '').slice(0, 60)} | ${x.line.slice(0, 100)}`);
  }
}

if (command === 'lines') lines();
else if (command === 'score') score();
else {
  console.error('usage: survivors.mjs lines|score <report.json>... [--only <regexp>]');
  process.exit(2);
}
