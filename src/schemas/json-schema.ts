// Small builders for JSON Schema (2020-12 / OpenAPI 3.1) objects, so schemas read like the tables of
// the spec. The same objects feed ajv and the OpenAPI document, and each also carries, for the
// type checker only, the type of the values it accepts in TypeBox's model: `StaticOf<typeof s>` is
// that type, so a handler, a rule or a view is checked against the one declaration of a shape.
// The objects are built here rather than by TypeBox's own builders so that the document keeps
// its member order and spelling.

import type { SchemaObject } from 'openapi3-ts/oas31';
import type { Static, TArray, TBoolean, TInteger, TLiteral, TNull, TNumber, TObject, TOptional, TRecord, TSchema, TString, TUnion, TUnknown, TUnsafe } from 'typebox';

export type Schema = SchemaObject;

/** A schema whose accepted values have the static type of `T` (never present at run time). */
export type Typed<T extends TSchema> = Schema & { readonly '~type'?: T };

/** The TypeBox type a schema carries; a plain Schema (a literal written by hand) carries none. */
type TypeOf<S> = S extends { readonly '~type'?: infer T extends TSchema } ? (unknown extends T ? TUnknown : T) : TUnknown;

/** The type of the values a schema accepts: `unknown` for a schema built without the builders. */
export type StaticOf<S> = Static<TypeOf<S>>;

type Members<P extends Record<string, Schema>, R extends string> = { [K in keyof P]: K extends R ? TypeOf<P[K]> : TOptional<TypeOf<P[K]>> };

export const str = (extra: Schema = {}) => ({ type: 'string', ...extra }) as Typed<TString>;
export const int = (extra: Schema = {}) => ({ type: 'integer', ...extra }) as Typed<TInteger>;
export const num = (extra: Schema = {}) => ({ type: 'number', ...extra }) as Typed<TNumber>;
export const bool = (extra: Schema = {}) => ({ type: 'boolean', ...extra }) as Typed<TBoolean>;
export const constant = <const V extends string>(value: V) => ({ type: 'string', const: value }) as Typed<TLiteral<V>>;
export const oneOfStrings = <const V extends readonly string[]>(values: V, extra: Schema = {}) =>
  ({ type: 'string', enum: [...values], ...extra }) as Typed<TUnsafe<V[number]>>;
export const arr = <I extends Schema>(items: I, extra: Schema = {}) => ({ type: 'array', items, ...extra }) as Typed<TArray<TypeOf<I>>>;
export const nullable = <S extends Schema>(schema: S): Typed<TUnion<[TypeOf<S>, TNull]>> => {
  const type = schema.type;
  if (typeof type === 'string') return { ...schema, type: [type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
};
/** Ids clients send as numbers as often as strings: both name the same record. */
export const strOrInt = (extra: Schema = {}) => ({ type: ['string', 'integer'], ...extra }) as Typed<TUnion<[TString, TInteger]>>;
/** A record's id as a client sends it, text or number, with what it names. */
export const idRef = (description: string) => strOrInt({ description });
/** A free map (custom attributes, metadata): any member names, checked member by member by the rules. */
export const freeObject = (extra: Schema = {}) => ({ type: 'object', ...extra }) as Typed<TRecord<'^.*$', TUnknown>>;
/** A map of any member names to values of one shape (event metadata). */
export const mapOf = <V extends Schema>(values: V, extra: Schema = {}) => ({ type: 'object', ...extra, additionalProperties: values }) as Typed<TRecord<'^.*$', TypeOf<V>>>;
/** One of several shapes. */
export const anyOf = <const S extends readonly Schema[]>(...schemas: S) => ({ anyOf: [...schemas] }) as Typed<TUnion<{ -readonly [K in keyof S]: TypeOf<S[K]> }>>;
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** A closed object: every member listed, the required ones named. */
export const obj = <P extends Record<string, Schema>, const R extends readonly string[] = []>(properties: P, required?: R, extra: Schema = {}) =>
  ({ type: 'object', properties, required: [...(required ?? [])], additionalProperties: false, ...extra }) as Typed<TObject<Members<P, R[number]>>>;
/** A closed object whose every member is required (an answer's shape), the members named once. */
export const objAll = <P extends Record<string, Schema>>(properties: P, extra: Schema = {}) => obj(properties, Object.keys(properties) as (keyof P & string)[], extra);

/** An object that tolerates members it does not list, as request bodies of real clients carry extra fields. */
export const openObj = <P extends Record<string, Schema>, const R extends readonly string[] = []>(properties: P, required?: R, extra: Schema = {}) =>
  ({ type: 'object', properties, required: [...(required ?? [])], ...extra }) as Typed<TObject<Members<P, R[number]>>>;

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
