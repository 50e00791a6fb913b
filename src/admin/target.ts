// Shared pieces of the control plane's per-app routes.

import { missing } from '../core/errors.js';
import type { AdminInput } from '../http/route.js';
import { arr, int, obj, oneOfStrings, openObj, str } from '../schemas/json-schema.js';
import type { AppState, IdsMode } from '../state/app-state.js';

export const CONTROL_TAG = 'Control plane';

/** Seeds running in slices (POST /__admin/seed, a --watch reload), in the order they started. */
export const seedingSchema = arr(
  obj(
    {
      app: str(),
      phase: str({ description: 'What the seed is doing: generating users, checking customers, indexing, ...' }),
      done: int({ minimum: 0 }),
      total: int({ minimum: 0, description: 'How many the phase has in all' }),
    },
    ['app', 'phase', 'done', 'total'],
  ),
  { description: 'Seeds in progress: requests to those apps wait for them; every other app is served' },
);

export const appParam = str({ description: 'App id; or send one of the app\'s tokens in Authorization' });
export const appQuery = openObj({ app: appParam });

/** `?ids=` of reset, seed and restore: rewind the app's id and random streams (default) or keep them running. */
export const idsParam = oneOfStrings(['rewind', 'fresh'], {
  default: 'rewind',
  description:
    'rewind (default): the app\'s id, pseudonym, request-id and fault-draw streams go back to where they stood at the state restored, so the same requests give byte-identical responses; fresh: they keep running, so ids handed out before are never handed out again',
});

export const idsMode = (query: Record<string, unknown>): IdsMode => (query.ids === 'fresh' ? 'fresh' : 'rewind');

export function requireApp(input: AdminInput): AppState {
  if (!input.app) throw missing('app', 'Name the app with ?app=<id> or one of its tokens in Authorization.');
  return input.app;
}

/** The named app, or every app. */
export function targets(input: AdminInput): AppState[] {
  if (input.app) return [input.app];
  return input.store.appIds().map((id) => input.store.app(id)).filter((a): a is AppState => a !== undefined);
}
