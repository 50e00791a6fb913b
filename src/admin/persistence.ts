// POST /__admin/save: writes every app's state to --data-dir now (data-dir/state-files.ts does the writing).

import { apiError } from '../core/errors.js';
import { adminRoute } from '../http/route.js';
import { arr, obj, str } from '../schemas/json-schema.js';
import { CONTROL_TAG } from './target.js';

export const save = adminRoute({
  method: 'POST',
  path: '/__admin/save',
  operationId: 'adminSave',
  summary: 'Write every app\'s state to --data-dir',
  description:
    'Writes the state of every app that changed since it was loaded or last saved to the directory given with --data-dir (one <app>.json each, atomically: temporary file, fsync, rename), as a graceful shutdown and --autosave do. The file is written in pieces while other requests are served; the answer comes once it is on disk. Provisioned test apps are not saved. Without --data-dir: 400 bad_request.',
  tag: CONTROL_TAG,
  response: {
    status: 200,
    description: 'What was written',
    schema: obj({ dir: str(), saved: arr(str()), unchanged: arr(str()) }, ['dir', 'saved', 'unchanged']),
  },
  errors: ['bad_request', 'server_error'],
  handler: async ({ store }) => {
    if (!store.saver) throw apiError('bad_request', 'This mock was started without --data-dir, so there is nowhere to save; start it with --data-dir DIR.');
    try {
      return { body: await store.saver() };
    } catch (err) {
      throw apiError('server_error', `Could not write the state: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`);
    }
  },
});
