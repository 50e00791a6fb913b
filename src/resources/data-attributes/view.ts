// GET /data_attributes/customer and /company: the built-in list, then the app's custom attributes.

import type { AppState } from '../../state/app-state.js';
import { BUILT_IN_ATTRIBUTES, COMPANY_BUILT_IN_ATTRIBUTES } from './rules.js';
import type { DataAttribute } from '../../engine/types.js';

function customView(a: DataAttribute) {
  return {
    type: 'data_attribute' as const,
    name: a.name,
    full_name: `custom_attributes.${a.name}`,
    label: a.label,
    description: a.description,
    data_type: a.data_type,
    ...(a.options ? { options: a.options } : {}),
    api_writable: a.api_writable,
    ui_writable: a.ui_writable,
    custom: true,
    archived: a.archived,
    ...(a.admin_id ? { admin_id: a.admin_id } : {}),
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export function dataAttributeListView(app: AppState, includeArchived: boolean) {
  const builtIns = BUILT_IN_ATTRIBUTES.map((a) => ({
    type: 'data_attribute' as const,
    name: a.name,
    full_name: a.full_name,
    label: a.label,
    description: '',
    data_type: a.data_type,
    api_writable: a.api_writable,
    ui_writable: a.api_writable,
    custom: false,
    archived: false,
  }));
  const custom = [...app.data.dataAttributes.values()].filter((a) => includeArchived || !a.archived).map(customView);
  return { type: 'data_attribute.list' as const, data_attributes: [...builtIns, ...custom] };
}

export function companyDataAttributeListView(app: AppState, includeArchived: boolean) {
  const builtIns = COMPANY_BUILT_IN_ATTRIBUTES.map((a) => ({
    type: 'data_attribute' as const,
    name: a.name,
    full_name: a.full_name,
    label: a.label,
    description: a.description,
    data_type: a.data_type,
    api_writable: a.api_writable,
    ui_writable: a.api_writable,
    custom: false,
    archived: false,
  }));
  const custom = [...app.data.companyAttributes.values()].filter((a) => includeArchived || !a.archived).map(customView);
  return { type: 'data_attribute.list' as const, data_attributes: [...builtIns, ...custom] };
}
