// The header's app picker: type a part of an app's id or name to narrow the list, which is read a
// page (100 apps) at a time from /__admin/apps, so a mock with thousands of test apps still picks
// any of them. The chosen app stays chosen while the search shows others; focusing the list reads it
// again (test apps come and go).

import { useState } from 'preact/hooks';
import { api } from './api.js';
import { Pager, useLoad, usePages } from './common.js';

export function AppPicker({ app, onPick, version }: { app: string; onPick: (id: string) => void; version: unknown }) {
  const [q, setQ] = useState('');
  const pages = usePages();
  const { offset } = pages;
  const page = useLoad(() => api.apps(offset, q.trim()), [offset, q, version]);
  const list = page.data?.apps ?? [];
  return (
    <div class="app-pick row" role="group" aria-label="App picker">
      <label>
        Find app{' '}
        <input
          type="search"
          value={q}
          maxLength={100}
          placeholder="id or name"
          onInput={(e) => {
            setQ(e.currentTarget.value);
            pages.reset();
          }}
        />
      </label>
      <label>
        App{' '}
        <select value={app} onFocus={page.reload} onChange={(e) => onPick(e.currentTarget.value)}>
          {!list.some((a) => a.id === app) && <option value={app}>{app}</option>}
          {list.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name.includes(a.id) ? a.id : `${a.id} (${a.name})`}
            </option>
          ))}
        </select>
      </label>
      {page.data && (page.data.total > list.length || offset > 0) && <Pager pages={pages} next={page.data.next_offset} total={page.data.total} shown={list.length} label="App picker" />}
    </div>
  );
}
