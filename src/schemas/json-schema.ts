// Small builders for JSON Schema (2020-12 / OpenAPI 3.1) objects, so schemas read like the tables of
// the spec. The same objects feed ajv and the OpenAPI document.

import type { SchemaObject } from 'openapi3-ts/oas31';

export type Schema = SchemaObject;

export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
export const num = (extra: Schema = {}): Schema => ({ type: 'number', ...extra });
export const bool = (extra: Schema = {}): Schema => ({ type: 'boolean', ...extra });
export const constant = (value: string): Schema => ({ type: 'string', const: value });
export const oneOfStrings = (values: readonly string[], extra: Schema = {}): Schema => ({
  type: 'string',
  enum: [...values],
  ...extra,
});
export const arr = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
export const nullable = (schema: Schema): Schema => {
  const type = schema.type;
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
};
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** A closed object: every member listed, the required ones named. */
export const obj = (properties: Record<string, Schema>, required: readonly string[] = [], extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required: [...required],
  additionalProperties: false,
  ...extra,
});

/** An object that tolerates members it does not list, as request bodies of real clients carry extra fields. */
export const openObj = (properties: Record<string, Schema>, required: readonly string[] = [], extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required: [...required],
  ...extra,
});

const paramObjects = new WeakMap<Record<string, Schema>, Schema>();

/** The object schema over a route's path parameters (all required), one object per route. */
export function paramsObject(params: Record<string, Schema>): Schema {
  let schema = paramObjects.get(params);
  if (!schema) {
    schema = obj(params, Object.keys(params));
    paramObjects.set(params, schema);
  }
  return schema;
}
