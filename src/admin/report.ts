// The contract report over HTTP: per API operation, what a run's requests called and got, the
// warnings they caused, and the operations they never touched (admin/contract-report.ts).

import { apiError } from '../core/errors.js';
import { adminRoute, type AdminInput, type RouteDef } from '../http/route.js';
import { arr, int, nullable, obj, openObj, str, type Schema } from '../schemas/json-schema.js';
import type { OperationTally } from './contract-report.js';
import type { Store } from '../state/store.js';
import { appParam, CONTROL_TAG } from './target.js';

const counts: Schema = { type: 'object', additionalProperties: int({ minimum: 0 }) };
const operationRef = { operationId: str(), method: str(), path: str() };

export const reportSchema = obj(
  {
    app: nullable(str({ description: 'the app reported on; null: every app the run saw, evicted test apps included' })),
    summary: str({ description: 'one line for a CI log' }),
    totals: obj({ operations: int(), called: int(), calls: int(), warnings: int(), muted: int({ description: 'of the warnings, those muted for their app or the process' }) }, ['operations', 'called', 'calls', 'warnings', 'muted']),
    operations: arr(
      obj({ ...operationRef, calls: int({ minimum: 1 }), statuses: counts, errors: counts, warnings: counts, muted: int({ minimum: 0 }) }, ['operationId', 'method', 'path', 'calls', 'statuses', 'errors', 'warnings', 'muted']),
      { description: 'the operations called, in the order of the document' },
    ),
    untouched: arr(obj(operationRef, ['operationId', 'method', 'path']), { description: 'the operations no request called' }),
  },
  ['app', 'summary', 'totals', 'operations', 'untouched'],
);

export interface ContractReportBody {
  app: string | null;
  summary: string;
  totals: { operations: number; called: number; calls: number; warnings: number; muted: number };
  operations: ({ operationId: string; method: string; path: string } & OperationTally)[];
  untouched: { operationId: string; method: string; path: string }[];
}

const sum = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/** The report of the run, or of one app, over the given API operations. */
export function contractReport(store: Store, operations: readonly RouteDef[], app?: string): ContractReportBody {
  const tallies = store.report.tallies(app);
  const called: ContractReportBody['operations'] = [];
  const untouched: ContractReportBody['untouched'] = [];
  const warningCodes: Record<string, number> = {};
  let calls = 0;
  let muted = 0;
  for (const def of operations) {
    const ref = { operationId: def.operationId, method: def.method, path: def.path };
    const t = tallies?.get(def.operationId);
    if (!t || t.calls === 0) {
      untouched.push(ref);
      continue;
    }
    called.push({ ...ref, calls: t.calls, statuses: { ...t.statuses }, errors: { ...t.errors }, warnings: { ...t.warnings }, muted: t.muted });
    calls += t.calls;
    muted += t.muted;
    for (const [code, n] of Object.entries(t.warnings)) warningCodes[code] = (warningCodes[code] ?? 0) + n;
  }
  const warnings = sum(warningCodes);
  const listed = Object.entries(warningCodes)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const summary = `contract${app === undefined ? '' : ` (app ${app})`}: ${called.length} of ${operations.length} operations called in ${calls} requests; ${warnings === 0 ? 'no warnings' : `${warnings} warning${warnings === 1 ? '' : 's'} (${listed})`}; GET /__admin/report for details`;
  return { app: app ?? null, summary, totals: { operations: operations.length, called: called.length, calls, warnings, muted }, operations: called, untouched };
}

function appNamed(input: AdminInput): string | undefined {
  const named = input.query.app;
  if (typeof named === 'string' && named !== '') return named;
  return input.app?.id;
}

/** The API operations of a route list: what the report is about. */
export const apiOperations = (routes: readonly RouteDef[]): RouteDef[] => routes.filter((r) => r.scope === 'app');

/** The report's routes over the API operations they report on. */
export function reportRoutes(api: readonly RouteDef[]): RouteDef[] {
  const operations = apiOperations(api);
  return [
    adminRoute({
      method: 'GET',
      path: '/__admin/report',
      operationId: 'adminContractReport',
      summary: 'The contract report',
      description:
        'Per API operation: how often the run\'s requests called it, the statuses and error codes they got, and the contract warnings they caused (muted ones included); then the operations no request called. The whole run (every app it saw, evicted test apps included), or one app with ?app= or its token. A reset keeps it; DELETE clears it. `summary` is one line for a CI log.',
      tag: CONTROL_TAG,
      query: openObj({ app: appParam }),
      response: { status: 200, description: 'The report', schema: reportSchema },
      errors: ['not_found', 'unauthorized'],
      examples: { query: { app: 'demo' } },
      handler: (input) => ({ body: contractReport(input.store, operations, appNamed(input)) }),
    }),
    adminRoute({
      method: 'DELETE',
      path: '/__admin/report',
      operationId: 'adminClearContractReport',
      summary: 'Clear the contract report',
      description: 'Forgets what the run\'s requests called, for one app (?app= or its token) or for the whole run.',
      tag: CONTROL_TAG,
      query: openObj({ app: appParam }),
      response: { status: 200, description: 'Cleared', schema: obj({ cleared: str() }, ['cleared']) },
      errors: ['not_found', 'unauthorized'],
      examples: { query: { app: 'demo' } },
      handler: (input) => {
        const app = appNamed(input);
        if (app !== undefined && !input.store.app(app)) throw apiError('not_found', `No app "${app.slice(0, 100)}"`, 'app');
        input.store.report.clear(app);
        return { body: { cleared: app ?? 'all' } };
      },
    }),
  ];
}
