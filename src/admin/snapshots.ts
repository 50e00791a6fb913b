// Named snapshots of one app's state: seed once, snapshot, restore after each test. A snapshot
// copies only what the app changed since its seeded base.

import { apiError, notFound } from '../core/errors.js';
import { adminRoute } from '../http/route.js';
import { arr, int, obj, openObj, str } from '../schemas/json-schema.js';
import { snapshotBytes } from '../engine/byte-budget.js';
import { appParam, appQuery, CONTROL_TAG, idsMode, idsParam, requireApp } from './target.js';
import { faultFilter } from '../resources/demo-examples.js';

const name = str({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._-]+$' });
const snapshotSchema = obj({ app: str(), name: str(), created_at: int() }, ['app', 'name', 'created_at']);
const MAX_SNAPSHOTS = 100;

export const createSnapshot = adminRoute({
  method: 'POST',
  path: '/__admin/snapshots',
  operationId: 'adminCreateSnapshot',
  summary: 'Save the app\'s current state under a name',
  description: `Saves the state (records, pending jobs, the rate-limit window and where the app's id and random streams stand) of the app named by ?app= or its token; the same name again overwrites it. At most ${MAX_SNAPSHOTS} per app, and every app's snapshots together pin at most the snapshots byte budget (what their states hold of each budgeted kind): past it, 403 resource_limit_exceeded.`,
  tag: CONTROL_TAG,
  query: appQuery,
  body: obj({ name }, ['name']),
  response: { status: 201, description: 'The snapshot', schema: snapshotSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized', 'conflict', 'resource_limit_exceeded'],
  examples: { query: faultFilter, body: { name: 'before-test' } },
  handler: (input) => {
    const app = requireApp(input);
    const snapshotName = String(input.body.name);
    if (!app.snapshots.has(snapshotName) && app.snapshots.size >= MAX_SNAPSHOTS) {
      throw apiError('conflict', `The app already holds ${MAX_SNAPSHOTS} snapshots; delete one first.`, 'name');
    }
    const replaced = app.snapshots.get(snapshotName);
    const bytes = snapshotBytes(app) - (replaced ? snapshotBytes(app, replaced) : 0);
    const budgets = input.store.budgets;
    if (bytes > 0 && !budgets.fits(app, 'snapshots', bytes)) {
      throw apiError(
        'resource_limit_exceeded',
        `The snapshots of every app already pin close to ${budgets.limits.snapshots} bytes of data, the most the mock keeps; delete snapshots (DELETE /__admin/snapshots/{name}) or reset apps first.`,
      );
    }
    const snapshot = app.snapshot(input.store.now());
    app.snapshots.set(snapshotName, snapshot);
    return { status: 201, body: { app: app.id, name: snapshotName, created_at: snapshot.created_at } };
  },
});

export const listSnapshots = adminRoute({
  method: 'GET',
  path: '/__admin/snapshots',
  operationId: 'adminListSnapshots',
  summary: 'List the app\'s snapshots',
  description: 'The snapshots of the app named by ?app= or its token, oldest first.',
  tag: CONTROL_TAG,
  query: appQuery,
  response: { status: 200, description: 'The snapshots', schema: obj({ snapshots: arr(snapshotSchema) }, ['snapshots']) },
  errors: ['parameter_not_found', 'not_found', 'unauthorized'],
  examples: { query: faultFilter },
  handler: (input) => {
    const app = requireApp(input);
    const snapshots = [...app.snapshots].map(([n, s]) => ({ app: app.id, name: n, created_at: s.created_at }));
    return { body: { snapshots } };
  },
});

export const restoreSnapshot = adminRoute({
  method: 'POST',
  path: '/__admin/snapshots/{name}/restore',
  operationId: 'adminRestoreSnapshot',
  summary: 'Roll the app back to a snapshot',
  description:
    'The app\'s state becomes exactly the snapshot\'s, rate-limit window included; the snapshot stays, so it can be restored again. With ids=rewind (default) the app\'s id and random streams go back to where they stood when it was taken, so the same requests give byte-identical responses; with ids=fresh ids handed out since are not handed out again.',
  tag: CONTROL_TAG,
  params: { name },
  query: openObj({ app: appParam, ids: idsParam }),
  response: { status: 200, description: 'The snapshot restored', schema: snapshotSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized'],
  examples: { params: { name: 'before-test' }, query: { app: 'demo', ids: 'rewind' } },
  exampleAfter: 'adminCreateSnapshot',
  handler: (input) => {
    const app = requireApp(input);
    const snapshotName = input.params.name ?? '';
    const snapshot = app.snapshots.get(snapshotName);
    if (!snapshot) throw notFound(`No snapshot "${snapshotName.slice(0, 100)}" in app "${app.id}"`);
    app.restore(snapshot, idsMode(input.query));
    return { body: { app: app.id, name: snapshotName, created_at: snapshot.created_at } };
  },
});

export const deleteSnapshot = adminRoute({
  method: 'DELETE',
  path: '/__admin/snapshots/{name}',
  operationId: 'adminDeleteSnapshot',
  summary: 'Delete a snapshot',
  description: 'Forgets the named snapshot of the app.',
  tag: CONTROL_TAG,
  params: { name },
  query: appQuery,
  response: { status: 200, description: 'Deleted', schema: obj({ deleted: str() }, ['deleted']) },
  errors: ['parameter_not_found', 'not_found', 'unauthorized'],
  examples: { params: { name: 'before-test' }, query: faultFilter },
  exampleAfter: 'adminCreateSnapshot',
  handler: (input) => {
    const app = requireApp(input);
    const snapshotName = input.params.name ?? '';
    if (!app.snapshots.delete(snapshotName)) throw notFound(`No snapshot "${snapshotName.slice(0, 100)}" in app "${app.id}"`);
    return { body: { deleted: snapshotName } };
  },
});

export const SNAPSHOT_ROUTES = [createSnapshot, listSnapshots, restoreSnapshot, deleteSnapshot];
