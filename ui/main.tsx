// The live console: asks for the admin token when the control plane wants one, then shows the
// Apps, Records, Traffic and Faults views for the app chosen in the header.

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, ControlError, setAdminToken } from './api.js';
import { AppPicker } from './app-picker.js';
import { ErrorNote, useLoad } from './common.js';
import { AppsView } from './views/apps.js';
import { FaultsView } from './views/faults.js';
import { RecordsView } from './views/records.js';
import { TrafficView } from './views/traffic.js';

const VIEWS = ['Apps', 'Records', 'Traffic', 'Faults'] as const;
type View = (typeof VIEWS)[number];

function TokenForm({ failed, onToken }: { failed: boolean; onToken: (t: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <main class="token">
      <h1>messaging-api-mock console</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onToken(value);
        }}
      >
        <p>This mock runs with <code>--admin-token</code>. Enter it to open the console (it is sent as <code>X-Admin-Token</code> and kept for this tab only).</p>
        {failed && <p class="error" role="alert">That token was refused.</p>}
        <label>
          Admin token <input type="password" autoFocus autoComplete="off" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        </label>
        <button type="submit">Open</button>
      </form>
    </main>
  );
}

function Console() {
  const [view, setView] = useState<View>('Apps');
  const [app, setApp] = useState('demo');
  // The chosen app's own row, read again after every action in Apps: once it is gone (a test app
  // dropped as idle, fixtures without `demo`) the first app is chosen instead. Only its row is
  // asked for, so an app past the first page of apps stays chosen.
  const chosen = useLoad(() => api.app(app), [app]);
  const gone = chosen.error?.status === 404;
  useEffect(() => {
    if (gone) void api.apps(0, '', 1).then((p) => p.apps[0] && setApp(p.apps[0].id));
  }, [chosen.error]);
  return (
    <div class="shell">
      <header class="top">
        <h1>messaging-api-mock</h1>
        <nav aria-label="Views" class="tabs">
          {VIEWS.map((v) => (
            <button type="button" key={v} aria-current={view === v ? 'page' : undefined} onClick={() => setView(v)}>
              {v}
            </button>
          ))}
        </nav>
        <AppPicker app={app} onPick={setApp} version={chosen.data} />
      </header>
      <ErrorNote error={gone ? undefined : chosen.error} />
      <main id="view">
        {view === 'Apps' && <AppsView app={app} onChanged={chosen.reload} />}
        {view === 'Records' && <RecordsView key={app} app={app} />}
        {view === 'Traffic' && <TrafficView app={app} />}
        {view === 'Faults' && <FaultsView app={app} />}
      </main>
    </div>
  );
}

function Root() {
  const [state, setState] = useState<'checking' | 'ask' | 'refused' | 'open'>('checking');
  const [failure, setFailure] = useState<ControlError | undefined>(undefined);
  const check = () =>
    api.health().then(
      () => setState('open'),
      (e: ControlError) => {
        if (e.status === 401) setState((s) => (s === 'checking' ? 'ask' : 'refused'));
        else setFailure(e);
      },
    );
  useEffect(() => {
    void check();
  }, []);
  if (failure) return <ErrorNote error={failure} />;
  if (state === 'checking') return <p class="boot">Connecting…</p>;
  if (state !== 'open')
    return (
      <TokenForm
        failed={state === 'refused'}
        onToken={(t) => {
          setAdminToken(t);
          void check();
        }}
      />
    );
  return <Console />;
}

render(<Root />, document.getElementById('root') as HTMLElement);
