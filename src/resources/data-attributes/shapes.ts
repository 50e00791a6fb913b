// GET /data_attributes/customer (spec 2.3 and the contract notes).

import { arr, bool, constant, int, obj, oneOfStrings, str } from '../../schemas/json-schema.js';

export const dataAttributeSchema = obj(
  {
    type: constant('data_attribute'),
    name: str(),
    full_name: str(),
    label: str(),
    description: str(),
    data_type: oneOfStrings(['string', 'integer', 'float', 'boolean', 'date']),
    options: arr(str(), { description: 'Only for attributes with a fixed list of choices.' }),
    api_writable: bool(),
    ui_writable: bool(),
    custom: bool(),
    archived: bool(),
    admin_id: str({ description: 'Custom attributes only, when an admin created it.' }),
    created_at: int({ description: 'Custom attributes only.' }),
    updated_at: int({ description: 'Custom attributes only.' }),
    model: oneOfStrings(['customer', 'company'], { description: 'API version 1.4 (GET /data_attributes?model=) only.' }),
  },
  ['type', 'name', 'full_name', 'label', 'description', 'data_type', 'api_writable', 'ui_writable', 'custom', 'archived'],
);

export const dataAttributeListSchema = obj(
  { type: constant('data_attribute.list'), data_attributes: arr(dataAttributeSchema) },
  ['type', 'data_attributes'],
);
