// Field limits shared by the fixture format and the request bodies: whatever a request may write,
// a fixture may hold, so the state export of any app always seeds back.

import { int, str, type Schema } from './json-schema.js';

/** 9999-12-31: any later timestamp is a typo, not a date. */
export const MAX_TIME = 253_402_300_799;

export const unixTime = (extra: Schema = {}) => int({ minimum: 0, maximum: MAX_TIME, ...extra });
/** Names, emails, phone numbers, ids chosen by clients. */
export const shortText = (extra: Schema = {}) => str({ maxLength: MAX_SHORT_TEXT, ...extra });
/** URLs. */
export const urlText = (extra: Schema = {}) => str({ maxLength: 2048, ...extra });
export const ipText = (extra: Schema = {}) => str({ maxLength: 64, ...extra });
export const userAgentText = (extra: Schema = {}) => str({ maxLength: 1024, ...extra });
/** Message and part bodies. */
export const bodyText = (extra: Schema = {}) => str({ maxLength: 65_535, ...extra });
/** A record's id as the server assigned it (a path's `{id}`, Node's `intercom_user_id`). */
export const serverId = () => str({ description: 'The id assigned by the server' });
/** The path parameters of `/<records>/{id}`. */
export const idParams = () => ({ id: serverId() });

// --- caps on what one request may carry -----------------------------------------------------------
// Each is far above what a real client sends (the real API's bulk endpoints took 50 to 100 items),
// and low enough that the largest request costs milliseconds. Over a cap: 400 parameter_invalid
// naming the member and the cap.

/** Longest stored email and tag name (code points, after normalisation: core/normal-text.ts). */
export const MAX_SHORT_TEXT = 255;
/** Items of `companies` in one customer write (POST /users, POST /contacts, visitor updates). */
export const MAX_COMPANIES_PER_WRITE = 100;
/** Items of `users`, and of `companies`, in one POST /tags. */
export const MAX_TAG_TARGETS = 1000;
/** Customers one conversation may hold (POST /conversations/{id}/customers, fixtures). */
export const MAX_CONVERSATION_CUSTOMERS = 100;
/** `attachment_urls` of one reply: "up to 5 URLs", as the real reply page says. */
export const MAX_ATTACHMENTS = 5;
/** Custom attributes one record holds, and so the most one request may send. */
export const MAX_CUSTOM_ATTRIBUTES = 250;
