// Shared pieces of the control plane's per-app routes.

import { missing } from '../core/errors.js';
import type { AdminInput } from '../routes/route.js';
import { openObj, str } from '../schemas/json-schema.js';
import type { AppState } from '../store/app-state.js';

export const CONTROL_TAG = 'Control plane';

export const appParam = str({ description: 'App id; or send one of the app\'s tokens in Authorization' });
export const appQuery = openObj({ app: appParam });

export function requireApp(input: AdminInput): AppState {
  if (!input.app) throw missing('app', 'Name the app with ?app=<id> or one of its tokens in Authorization.');
  return input.app;
}

/** The named app, or every app. */
export function targets(input: AdminInput): AppState[] {
  if (input.app) return [input.app];
  return input.store.appIds().map((id) => input.store.app(id)).filter((a): a is AppState => a !== undefined);
}
