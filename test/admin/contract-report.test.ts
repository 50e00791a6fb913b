// The contract report's tallies (src/admin/contract-report.ts) below the HTTP tests of
// test/http/warnings.test.ts: per operation and per app, muted warnings counted apart, and what
// clearing one app or forgetting an evicted one leaves in the run's total.

import { describe, expect, it } from 'vitest';
import { ContractReport } from '../../src/admin/contract-report.js';
import { RequestWarnings } from '../../src/core/warnings.js';

const warned = (muted: string[], ...codes: ('unused_field' | 'coerced_value')[]) => {
  const w = new RequestWarnings(false, new Set(muted));
  for (const code of codes) w.add(code, `${code}: ignored.`);
  return w;
};

const plain = (report: ContractReport, app?: string) => Object.fromEntries([...(report.tallies(app) ?? new Map())].map(([op, t]) => [op, { ...t }]));

describe('the contract report', () => {
  it('counts calls, statuses, error codes and warnings per operation, for the run and each app, muted ones apart', () => {
    const r = new ContractReport();
    r.record('a', 'listUsers', 200, undefined, warned(['coerced_value'], 'unused_field', 'coerced_value'));
    r.record('a', 'listUsers', 400, ['parameter_invalid'], undefined);
    r.record('b', 'listUsers', 200, [], warned([], 'unused_field'));
    r.record('b', 'getUser', 404, ['not_found'], undefined);
    expect(plain(r)).toEqual({
      listUsers: { calls: 3, statuses: { '200': 2, '400': 1 }, errors: { parameter_invalid: 1 }, warnings: { unused_field: 2, coerced_value: 1 }, muted: 1 },
      getUser: { calls: 1, statuses: { '404': 1 }, errors: { not_found: 1 }, warnings: {}, muted: 0 },
    });
    expect(plain(r, 'a')).toEqual({ listUsers: { calls: 2, statuses: { '200': 1, '400': 1 }, errors: { parameter_invalid: 1 }, warnings: { unused_field: 1, coerced_value: 1 }, muted: 1 } });
    expect(r.tallies('c')).toBeUndefined();
  });

  it('takes a cleared app\'s tallies out of the total, dropping what reaches zero, and keeps an evicted app\'s', () => {
    const r = new ContractReport();
    r.record('a', 'listUsers', 200, undefined, warned(['coerced_value'], 'coerced_value'));
    r.record('a', 'getUser', 404, ['not_found'], undefined);
    r.record('b', 'listUsers', 200, undefined, warned([], 'unused_field'));
    r.record('b', 'listUsers', 400, ['parameter_invalid'], undefined);
    r.clear('a');
    expect(r.tallies('a')).toBeUndefined();
    expect(plain(r)).toEqual({ listUsers: { calls: 2, statuses: { '200': 1, '400': 1 }, errors: { parameter_invalid: 1 }, warnings: { unused_field: 1 }, muted: 0 } });
    r.clear('never-seen');
    expect(plain(r)).toEqual({ listUsers: { calls: 2, statuses: { '200': 1, '400': 1 }, errors: { parameter_invalid: 1 }, warnings: { unused_field: 1 }, muted: 0 } });
    r.forgetApp('b');
    expect(r.tallies('b')).toBeUndefined();
    expect(plain(r).listUsers?.calls).toBe(2);
    // Cleared after it was forgotten: nothing of b is known any more, so the total keeps it.
    r.clear('b');
    expect(plain(r).listUsers?.calls).toBe(2);
    r.clear();
    expect(plain(r)).toEqual({});
  });
});
