// Field limits shared by the fixture format and the request bodies: whatever a request may write,
// a fixture may hold, so the state export of any app always seeds back.

import { int, str, type Schema } from './json-schema.js';

/** 9999-12-31: any later timestamp is a typo, not a date. */
export const MAX_TIME = 253_402_300_799;

export const unixTime = (extra: Schema = {}): Schema => int({ minimum: 0, maximum: MAX_TIME, ...extra });
/** Names, emails, phone numbers, ids chosen by clients. */
export const shortText = (extra: Schema = {}): Schema => str({ maxLength: 255, ...extra });
/** URLs. */
export const urlText = (extra: Schema = {}): Schema => str({ maxLength: 2048, ...extra });
export const ipText = (extra: Schema = {}): Schema => str({ maxLength: 64, ...extra });
export const userAgentText = (extra: Schema = {}): Schema => str({ maxLength: 1024, ...extra });
/** Message and part bodies. */
export const bodyText = (extra: Schema = {}): Schema => str({ maxLength: 65_535, ...extra });
