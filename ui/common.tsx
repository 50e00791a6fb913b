// Small pieces every view uses: loading a control-plane answer, paging, errors.

import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ControlError } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: ControlError | undefined;
  reload: () => void;
}

/** Calls `load` when a dependency changes (and on reload), keeping the last answer while it runs. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ControlError | undefined>(undefined);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (d) => live && (setData(d), setError(undefined)),
      (e: unknown) => live && setError(e instanceof ControlError ? e : new ControlError(0, 'error', String(e))),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, reload: useCallback(() => setTick((t) => t + 1), []) };
}

export function ErrorNote({ error }: { error: ControlError | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      <strong>{error.status ? `${error.status} ${error.code}` : error.code}</strong> {error.message}
    </p>
  );
}

/** Where a Pager goes: to an offset (0 is First, or the next page's), or back one page. */
export interface Pages {
  offset: number;
  go: (offset: number) => void;
  back: () => void;
  canBack: boolean;
}

/**
 * The offsets of the pages walked through, the last one shown: Previous returns to the page before
 * exactly, even where a page's length is not fixed (a name search reads on from where it stopped).
 */
export function usePages(): Pages & { reset: () => void } {
  const [trail, setTrail] = useState<number[]>([0]);
  const reset = useCallback(() => setTrail([0]), []);
  return {
    offset: trail[trail.length - 1] ?? 0,
    go: (to: number) => setTrail((t) => (to === 0 ? [0] : [...t, to])),
    back: () => setTrail((t) => (t.length > 1 ? t.slice(0, -1) : t)),
    canBack: trail.length > 1,
    reset,
  };
}

export function Pager({ pages, next, total, shown, label }: { pages: Pages; next: number | null; total: number | null; shown: number; label: string }) {
  const { offset } = pages;
  const range = shown === 0 ? 'none' : `${offset + 1}–${offset + shown}`;
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" disabled={offset === 0} onClick={() => pages.go(0)}>
        First
      </button>
      <button type="button" disabled={!pages.canBack} onClick={pages.back}>
        Previous
      </button>
      <span>
        {range}
        {total === null ? '' : ` of ${total}`}
      </span>
      <button type="button" disabled={next === null} onClick={() => next !== null && pages.go(next)}>
        Next
      </button>
    </nav>
  );
}

export function Section({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="panel" aria-label={title}>
      <header class="panel-head">
        <h2>{title}</h2>
        {actions}
      </header>
      {children}
    </section>
  );
}

/** A value as text: outside URLs (avatars, attachments) are shown, never loaded. */
export const show = (v: unknown): string => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
