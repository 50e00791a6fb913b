// Customer data attributes: the built-in list of the contract notes, and custom attributes that are
// declared in fixtures or registered on first write with a type inferred from the value.

import { REFERENCE_TIME } from './normalize.js';
import type { CustomAttributeValue, Customer, DataAttribute, DataType } from './types.js';

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
export function registerCustomAttributes(declared: readonly DataAttribute[], customers: readonly Customer[]): DataAttribute[] {
  const out = [...declared];
  const known = new Set(declared.map((a) => a.name));
  for (const c of customers) {
    for (const [name, value] of Object.entries(c.custom_attributes)) {
      if (known.has(name)) continue;
      known.add(name);
      out.push(customAttribute(name, value, REFERENCE_TIME));
    }
  }
  return out;
}
