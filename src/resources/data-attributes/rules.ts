// Customer data attributes: the built-in list of the contract notes, and custom attributes that are
// declared in fixtures or registered on first write with a type inferred from the value.

import { REFERENCE_TIME } from '../../fixtures/normalize.js';
import type { CowMap } from '../../engine/cow.js';
import { each, type Steps } from '../../engine/steps.js';
import type { CustomAttributes, CustomAttributeValue, DataAttribute, DataType } from '../../engine/types.js';

export interface BuiltInAttribute {
  name: string;
  full_name: string;
  label: string;
  data_type: DataType;
  api_writable: boolean;
}

const builtIn = (name: string, data_type: DataType, full_name = name, api_writable = false): BuiltInAttribute => ({
  name,
  full_name,
  label: name
    .split('_')
    .map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(' '),
  data_type,
  api_writable,
});

const location = (name: string): BuiltInAttribute => builtIn(name, 'string', `location_data.${name}`);

export const BUILT_IN_ATTRIBUTES: readonly BuiltInAttribute[] = [
  builtIn('name', 'string', 'name', true),
  builtIn('owner_id', 'integer'),
  builtIn('email', 'string', 'email', true),
  builtIn('phone', 'string', 'phone', true),
  builtIn('created_at', 'date'),
  builtIn('signed_up_at', 'date', 'signed_up_at', true),
  builtIn('unsubscribed_from_emails', 'boolean', 'unsubscribed_from_emails', true),
  builtIn('marked_email_as_spam', 'boolean'),
  builtIn('has_hard_bounced', 'boolean'),
  builtIn('id', 'string'),
  builtIn('updated_at', 'date'),
  builtIn('app_id', 'string'),
  builtIn('user_id', 'string', 'user_id', true),
  builtIn('image_url', 'string', 'avatar.image_url'),
  builtIn('last_request_at', 'date', 'last_request_at', true),
  location('country_name'),
  location('region_name'),
  location('city_name'),
  location('postal_code'),
  location('timezone'),
  location('continent_code'),
  location('country_code'),
  builtIn('anonymous', 'boolean'),
  builtIn('pseudonym', 'string'),
  builtIn('session_count', 'integer'),
  builtIn('referrer', 'string'),
  builtIn('utm_campaign', 'string'),
  builtIn('utm_content', 'string'),
  builtIn('utm_medium', 'string'),
  builtIn('utm_source', 'string'),
  builtIn('utm_term', 'string'),
];

export function inferDataType(name: string, value: CustomAttributeValue): DataType {
  if (name.endsWith('_at')) return 'date';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float';
  return 'string';
}

export function customAttribute(name: string, value: CustomAttributeValue, at: number): DataAttribute {
  return {
    name,
    label: name,
    description: '',
    data_type: inferDataType(name, value),
    api_writable: true,
    ui_writable: true,
    archived: false,
    created_at: at,
    updated_at: at,
  };
}

/** Declared attributes, then every undeclared custom attribute the customers carry, in first-seen order. */
export function* registerCustomAttributes(declared: readonly DataAttribute[], customers: readonly { custom_attributes: CustomAttributes }[]): Steps<DataAttribute[]> {
  const out = [...declared];
  const known = new Set(declared.map((a) => a.name));
  yield* each('registering attributes', customers, (c) => {
    for (const [name, value] of Object.entries(c.custom_attributes)) {
      if (known.has(name)) continue;
      known.add(name);
      out.push(customAttribute(name, value, REFERENCE_TIME));
    }
  });
  return out;
}

/** A company write registers each custom attribute name the app's companies have not carried before. */
export function registerCompanyAttributes(registry: CowMap<DataAttribute>, attributes: CustomAttributes, at: number): void {
  for (const name of Object.keys(attributes)) {
    if (!registry.has(name)) registry.set(name, customAttribute(name, attributes[name] as CustomAttributeValue, at));
  }
}

/** GET /data_attributes/company: the built-in company attributes (Intercom-OpenAPI 2.7's list, 1.3's labels where given). */
export const COMPANY_BUILT_IN_ATTRIBUTES: readonly (BuiltInAttribute & { description: string })[] = [
  { name: 'name', full_name: 'name', label: 'Company name', description: 'The name of a company', data_type: 'string', api_writable: true },
  { name: 'company_id', full_name: 'company_id', label: 'Company ID', description: 'A number identifying a company', data_type: 'string', api_writable: false },
  { name: 'last_request_at', full_name: 'last_request_at', label: 'Company last seen', description: 'The last day anyone from a company visited your site or app', data_type: 'date', api_writable: false },
  { name: 'remote_created_at', full_name: 'remote_created_at', label: 'Company created at', description: 'The day a company was added to Intercom', data_type: 'date', api_writable: true },
  { name: 'user_count', full_name: 'user_count', label: 'People', description: 'The number of people in a company', data_type: 'integer', api_writable: false },
  { name: 'session_count', full_name: 'session_count', label: 'Company web sessions', description: 'All visits from anyone in a company', data_type: 'integer', api_writable: false },
  { name: 'name', full_name: 'plan.name', label: 'Plan', description: 'A specific plan or level within your product that companies have signed up to', data_type: 'string', api_writable: true },
  { name: 'monthly_spend', full_name: 'monthly_spend', label: 'Monthly Spend', description: 'The monthly revenue you receive from a company', data_type: 'float', api_writable: true },
  { name: 'size', full_name: 'size', label: 'Company size', description: 'The number of employees in a company', data_type: 'integer', api_writable: true },
  { name: 'industry', full_name: 'industry', label: 'Company industry', description: 'The category or domain this company belongs to', data_type: 'string', api_writable: true },
  { name: 'website', full_name: 'website', label: 'Company website', description: 'The website this company has', data_type: 'string', api_writable: true },
  { name: 'id', full_name: 'id', label: 'ID', description: 'The Intercom defined id representing the company', data_type: 'string', api_writable: false },
  { name: 'created_at', full_name: 'created_at', label: 'Created at', description: 'The time the company was added to Intercom', data_type: 'date', api_writable: false },
  { name: 'updated_at', full_name: 'updated_at', label: 'Updated at', description: 'The last time the company was updated', data_type: 'date', api_writable: false },
  { name: 'id', full_name: 'plan.id', label: 'Plan ID', description: 'The Intercom defined id representing the plan', data_type: 'string', api_writable: false },
];
