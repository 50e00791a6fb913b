// Fault injection over HTTP: latency, errors, a forced 429 and dropped rate-limit headers.

import { apiError, CODE_FOR_STATUS, ERROR_STATUS, notFound, type ErrorCode } from '../core/errors.js';
import { adminRoute } from '../http/route.js';
import { arr, bool, int, num, obj, oneOfStrings, str, type Schema } from '../schemas/json-schema.js';
import { MAX_FAULTS_PER_SCOPE, type FaultSpec } from './fault-rules.js';
import { appQuery, CONTROL_TAG } from './target.js';
import { faultFilter } from '../resources/demo-examples.js';

const specProps: Record<string, Schema> = {
  operation_id: str({ description: 'Only this operation' }),
  method: oneOfStrings(['GET', 'POST', 'PUT', 'DELETE']),
  path: str({ description: 'Exact path, or a prefix ending in *' }),
  latency_ms: int({ minimum: 0, maximum: 60_000 }),
  latency_max_ms: int({ minimum: 0, maximum: 60_000, description: 'With latency_ms: a seeded draw between the two' }),
  error: oneOfStrings(Object.keys(ERROR_STATUS), { description: 'Answer with this error code and its status' }),
  status: { type: 'integer', enum: Object.keys(CODE_FOR_STATUS).map(Number), description: 'Answer with this status (and its most general code), e.g. 503' },
  rate_limit: bool({ description: 'Answer 429 rate_limit_exceeded' }),
  drop_rate_limit_headers: bool({ description: 'Leave the X-RateLimit-* headers off, as the real service occasionally does' }),
  count: int({ minimum: 1, maximum: 1_000_000, description: 'Only the next N matching requests' }),
  fraction: num({ minimum: 0, maximum: 1, description: 'Only this fraction of matching requests (seeded)' }),
};

const faultSchema = obj({ id: int(), app: str(), hits: int({ minimum: 0 }), ...specProps }, ['id', 'hits']);

export const addFault = adminRoute({
  method: 'POST',
  path: '/__admin/faults',
  operationId: 'adminAddFault',
  summary: 'Inject a fault',
  description:
    `Applies to the app named by ?app= or its token, or to every app. Selectors (operation_id, method, path) narrow it; count limits it to the next N matches, fraction to a seeded share. Effects: latency, an error answer, a forced 429, dropped rate-limit headers. At least one effect is required. At most ${MAX_FAULTS_PER_SCOPE} faults per app and ${MAX_FAULTS_PER_SCOPE} for every app: past it, 409 conflict.`,
  tag: CONTROL_TAG,
  query: appQuery,
  body: obj(specProps),
  response: { status: 201, description: 'The fault', schema: faultSchema },
  errors: ['parameter_not_found', 'parameter_invalid', 'not_found', 'unauthorized', 'conflict'],
  examples: {
    query: faultFilter,
    body: { operation_id: 'getUser', method: 'GET', path: '/users/{id}', latency_ms: 10, latency_max_ms: 20, error: 'service_unavailable', status: 503, rate_limit: false, drop_rate_limit_headers: false, count: 1, fraction: 1 },
  },
  handler: ({ store, app, body }) => {
    const spec = body as FaultSpec;
    if (spec.status !== undefined) {
      const code = CODE_FOR_STATUS[spec.status] as ErrorCode;
      if (spec.error !== undefined && ERROR_STATUS[spec.error] !== spec.status) {
        throw apiError('parameter_invalid', `error ${spec.error} answers ${ERROR_STATUS[spec.error]}, not ${spec.status}.`, 'status');
      }
      spec.error ??= code;
    }
    if (spec.error !== undefined) spec.status = ERROR_STATUS[spec.error];
    if (spec.latency_ms === undefined && spec.error === undefined && !spec.rate_limit && !spec.drop_rate_limit_headers) {
      throw apiError('parameter_not_found', 'Give an effect: latency_ms, error (or status), rate_limit or drop_rate_limit_headers.', 'error');
    }
    if (spec.latency_max_ms !== undefined && (spec.latency_ms === undefined || spec.latency_max_ms < spec.latency_ms)) {
      throw apiError('parameter_invalid', 'latency_max_ms needs latency_ms and must not be below it.', 'latency_max_ms');
    }
    return { status: 201, body: store.faults.add({ ...spec, ...(app ? { app: app.id } : {}) }) };
  },
});

export const listFaults = adminRoute({
  method: 'GET',
  path: '/__admin/faults',
  operationId: 'adminListFaults',
  summary: 'List the active faults',
  description: 'Faults still in force, with how often each has applied; ?app= narrows to those of one app.',
  tag: CONTROL_TAG,
  query: appQuery,
  response: { status: 200, description: 'The faults', schema: obj({ faults: arr(faultSchema) }, ['faults']) },
  errors: ['not_found', 'unauthorized'],
  examples: { query: faultFilter },
  handler: ({ store, app }) => ({ body: { faults: store.faults.all(app?.id) } }),
});

export const clearFaults = adminRoute({
  method: 'DELETE',
  path: '/__admin/faults',
  operationId: 'adminClearFaults',
  summary: 'Remove faults',
  description: 'Removes every fault, or those of the app named.',
  tag: CONTROL_TAG,
  query: appQuery,
  response: { status: 200, description: 'How many were removed', schema: obj({ removed: int({ minimum: 0 }) }, ['removed']) },
  errors: ['not_found', 'unauthorized'],
  examples: { query: faultFilter },
  handler: ({ store, app }) => ({ body: { removed: store.faults.clear(app?.id) } }),
});

export const deleteFault = adminRoute({
  method: 'DELETE',
  path: '/__admin/faults/{id}',
  operationId: 'adminDeleteFault',
  summary: 'Remove one fault',
  description: 'Removes the fault with this id; with ?app= (or a token) only if it is that app\'s.',
  tag: CONTROL_TAG,
  params: { id: str({ pattern: '^[0-9]{1,9}$' }) },
  query: appQuery,
  response: { status: 200, description: 'Removed', schema: obj({ removed: int({ minimum: 0 }) }, ['removed']) },
  errors: ['not_found'],
  examples: { params: { id: '1' }, query: faultFilter },
  exampleAfter: 'adminAddFault',
  handler: ({ store, params, app }) => {
    if (!store.faults.remove(Number(params.id), app?.id)) throw notFound(`No fault ${String(params.id)}${app ? ` in app "${app.id}"` : ''}`);
    return { body: { removed: 1 } };
  },
});

export const FAULT_ROUTES = [addFault, listFaults, clearFaults, deleteFault];
