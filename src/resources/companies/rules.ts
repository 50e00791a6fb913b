// Companies: create or update by the client's company_id, from POST /companies or from the
// `companies` of a customer write. Changes are planned (and every problem found) before anything
// is stored, so a rejected request leaves the app as it was.

import { ApiError, apiError, missing, type ErrorItem } from '../../core/errors.js';
import type { AppState } from '../../state/app-state.js';
import { companyNamed } from './list.js';
import { mergeCustomAttributes } from '../customers/custom-attributes.js';
import { emptyCompany } from '../../fixtures/normalize.js';
import type { Store } from '../../state/store.js';
import type { Company } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { companyItem } from '../customers/shapes.js';
import { companyByCompanyId, saveCompany } from './indexes.js';

/** What the request sends, as its schema declares it. */
export type CompanyInput = StaticOf<typeof companyItem>;

const SIMPLE_FIELDS = ['name', 'monthly_spend', 'plan', 'size', 'website', 'industry', 'remote_created_at'] as const;

export interface CompanyPlan {
  company: Company;
  remove: boolean;
}

/**
 * The companies `inputs` create or update, not yet stored. Several items naming one company_id
 * apply in order to the same company. Throws every problem at once; allocates ids only when all is valid.
 */
/**
 * The company_id a write names: its own, else the company whose Intercom id `id` is (.NET and Ruby
 * name companies so), else `id` read as a company_id (Python's README), which is reported.
 */
function companyIdOf(app: AppState, input: CompanyInput, companyIdField: string, idField: string, byName: boolean): string {
  if (input.company_id !== undefined) return String(input.company_id);
  const required = `${companyIdField} is a required parameter.`;
  if (input.id === undefined) {
    if (byName && typeof input.name === 'string' && input.name !== '') return companyIdByName(app, input.name, companyIdField, required);
    throw missing(companyIdField, required);
  }
  const id = String(input.id);
  const company = app.data.companies.get(id);
  if (company) return company.company_id;
  app.warn('coerced_value', `${idField} ${JSON.stringify(id.slice(0, 100))} names no company: read as its company_id.`, idField);
  return id;
}

/**
 * POST /companies with a name and no identifier, as .NET's README creates one: the company C3
 * finds by that name, else a new one whose company_id is the name [I]. Reported, since the real
 * API looked companies up by company_id.
 */
function companyIdByName(app: AppState, name: string, field: string, required: string): string {
  const named = companyNamed(app, name);
  const what = named ? `the company named ${JSON.stringify(name.slice(0, 100))} is updated` : 'a new company is created with the name as its company_id';
  app.warn('missing_identifier', `No company_id: ${what}.`, field, required);
  return named ? named.company_id : name;
}

export function planCompanies(
  store: Store,
  app: AppState,
  inputs: readonly CompanyInput[],
  field: (i: number) => string,
  /** Problems the caller already found, thrown together with these. */
  problems: ErrorItem[] = [],
  /**
   * Whether `remove` means anything: only in a customer's `companies`. In POST /companies (false)
   * a name alone may name the company instead (companyIdByName).
   */
  removable = true,
): CompanyPlan[] {
  if (inputs.length === 0) {
    if (problems.length > 0) throw new ApiError(problems);
    return [];
  }
  const at = (i: number, member: string): string => (field(i) ? `${field(i)}.${member}` : member);
  const now = store.now();
  const working = new Map<string, Company | undefined>();
  const current = (companyId: string): Company | undefined =>
    working.has(companyId) ? working.get(companyId) : companyByCompanyId(app, companyId);
  const drafts: { companyId: string; input: CompanyInput; remove: boolean; attributes: Company['custom_attributes'] }[] = [];
  inputs.forEach((input, i) => {
    const remove = removable && input.remove === true;
    const companyId = companyIdOf(app, input, at(i, 'company_id'), at(i, 'id'), !removable);
    if (companyId === '') problems.push({ code: 'parameter_invalid', message: 'company_id cannot be empty.', field: at(i, 'company_id') });
    const before = current(companyId);
    const merged = mergeCustomAttributes(before?.custom_attributes ?? {}, input.custom_attributes, at(i, 'custom_attributes'));
    problems.push(...merged.problems);
    drafts.push({ companyId, input, remove, attributes: merged.value });
    if (!remove) working.set(companyId, { ...(before ?? emptyCompany('', companyId, now)), custom_attributes: merged.value });
  });
  if (problems.length > 0) throw new ApiError(problems);

  const built = new Map<string, Company>();
  const out: CompanyPlan[] = [];
  for (const { companyId, input, remove, attributes } of drafts) {
    const before = built.get(companyId) ?? companyByCompanyId(app, companyId);
    // Removing a company the customer cannot be in is a no-op, not an error.
    if (remove) {
      if (before) out.push({ company: before, remove: true });
      continue;
    }
    const base = before ?? emptyCompany(app.newObjectId(now, (x) => app.data.companies.has(x)), companyId, now);
    const changes = Object.fromEntries(SIMPLE_FIELDS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]));
    const company: Company = { ...base, ...changes, custom_attributes: attributes, updated_at: now };
    built.set(companyId, company);
    out.push({ company, remove: false });
  }
  return out;
}

export function upsertCompany(store: Store, app: AppState, input: CompanyInput): Company {
  // The body itself, not a copy: it may carry any number of members the schema ignores.
  const [plan] = planCompanies(store, app, [input], () => '', [], false);
  if (!plan) throw new Error('a company plan without a company');
  saveCompany(app, plan.company);
  return plan.company;
}

export function requireCompany(app: AppState, id: string): Company {
  const company = app.data.companies.get(id);
  if (!company) throw apiError('company_not_found', 'Company Not Found');
  return company;
}

export function requireCompanyByCompanyId(app: AppState, companyId: string): Company {
  const company = companyByCompanyId(app, companyId);
  if (!company) throw apiError('company_not_found', 'Company Not Found');
  return company;
}
