// Faults: the faults in force (for this app and for every app), a form to add one (operation,
// method, path, status or error, latency, fraction, count) and a button to remove each.

import { useState } from 'preact/hooks';
import { api, ControlError, type Fault } from '../api.js';
import { ErrorNote, Section, useLoad } from '../common.js';

const STATUSES = ['', '400', '401', '403', '404', '409', '429', '500', '502', '503', '504'];

function describe(f: Fault): string {
  const effects = [
    f.error ? `answers ${f.status ?? ''} ${f.error}` : '',
    f.rate_limit ? 'answers 429' : '',
    f.latency_ms !== undefined ? `waits ${f.latency_ms} ms` : '',
  ].filter(Boolean);
  return effects.join(', ');
}

function Form({ app, onAdded }: { app: string; onAdded: () => void }) {
  const empty = { operation_id: '', method: '', path: '', status: '503', error: '', latency_ms: '', fraction: '', count: '', scope: 'app' };
  const [f, setF] = useState(empty);
  const [error, setError] = useState<ControlError | undefined>(undefined);
  const set = (k: keyof typeof empty) => (e: Event) => setF({ ...f, [k]: (e.currentTarget as HTMLInputElement).value });
  const submit = (e: Event) => {
    e.preventDefault();
    const spec: Record<string, unknown> = {};
    if (f.operation_id.trim()) spec.operation_id = f.operation_id.trim();
    if (f.method) spec.method = f.method;
    if (f.path.trim()) spec.path = f.path.trim();
    // An error code names its own status: the status chosen is then left out rather than contradicted.
    if (f.error.trim()) spec.error = f.error.trim();
    else if (f.status) spec.status = Number(f.status);
    if (f.latency_ms) spec.latency_ms = Number(f.latency_ms);
    if (f.fraction) spec.fraction = Number(f.fraction);
    if (f.count) spec.count = Number(f.count);
    api.addFault(f.scope === 'app' ? app : undefined, spec).then(
      () => {
        setError(undefined);
        setF(empty);
        onAdded();
      },
      (err: ControlError) => setError(err),
    );
  };
  return (
    <Section title="Add a fault">
      <form class="fault-form" onSubmit={submit}>
        <label>
          Operation <input value={f.operation_id} placeholder="getUser (any when empty)" onInput={set('operation_id')} />
        </label>
        <label>
          Method{' '}
          <select value={f.method} onChange={set('method')}>
            <option value="">any</option>
            {['GET', 'POST', 'PUT', 'DELETE'].map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          Path <input value={f.path} placeholder="/users/* (any when empty)" onInput={set('path')} />
        </label>
        <label>
          Answer with status{' '}
          <select value={f.status} onChange={set('status')}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s === '' ? 'none (latency only)' : s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Or error code <input value={f.error} placeholder="tag_not_found (its own status)" onInput={set('error')} />
        </label>
        <label>
          Latency (ms) <input type="number" min="0" max="60000" value={f.latency_ms} onInput={set('latency_ms')} />
        </label>
        <label>
          Fraction (0 to 1) <input type="number" min="0" max="1" step="0.05" value={f.fraction} onInput={set('fraction')} />
        </label>
        <label>
          Count (next N) <input type="number" min="1" value={f.count} onInput={set('count')} />
        </label>
        <label>
          Applies to{' '}
          <select value={f.scope} onChange={set('scope')}>
            <option value="app">app {app}</option>
            <option value="all">every app</option>
          </select>
        </label>
        <button type="submit">Add fault</button>
      </form>
      <ErrorNote error={error} />
    </Section>
  );
}

export function FaultsView({ app }: { app: string }) {
  const faults = useLoad(() => api.faults(), []);
  const [error, setError] = useState<ControlError | undefined>(undefined);
  const remove = (id: number) => api.removeFault(id).then(faults.reload, setError);
  const list = (faults.data?.faults ?? []).filter((f) => f.app === undefined || f.app === app);
  return (
    <>
      <Section title="Active faults" actions={<button type="button" onClick={faults.reload}>Refresh</button>}>
        <ErrorNote error={faults.error ?? error} />
        <table>
          <caption class="sr-only">Active faults</caption>
          <thead>
            <tr>
              <th scope="col" class="num">Id</th>
              <th scope="col">App</th>
              <th scope="col">Matches</th>
              <th scope="col">Effect</th>
              <th scope="col">Limits</th>
              <th scope="col" class="num">Hits</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((f) => (
              <tr key={f.id}>
                <td class="num">{f.id}</td>
                <td>{f.app ?? 'every app'}</td>
                <td class="mono">{[f.method, f.operation_id, f.path].filter(Boolean).join(' ') || 'every request'}</td>
                <td>{describe(f)}</td>
                <td>{[f.count !== undefined ? `next ${f.count}` : '', f.fraction !== undefined ? `${f.fraction * 100}%` : ''].filter(Boolean).join(', ') || '—'}</td>
                <td class="num">{f.hits}</td>
                <td>
                  <button type="button" class="quiet" onClick={() => void remove(f.id)}>
                    Remove fault {f.id}
                  </button>
                </td>
              </tr>
            ))}
            {list.length === 0 && (
              <tr>
                <td colSpan={7} class="sub">
                  No faults in force for {app}.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </Section>
      <Form app={app} onAdded={faults.reload} />
    </>
  );
}
