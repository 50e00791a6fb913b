// Leads beyond POST /contacts: the lookups by user_id and phone (GET /contacts), the update by
// PUT, and the conversion into a user (POST /contacts/convert) with the merge rules of the
// convert-a-lead page.

import { missing, notFound } from '../../core/errors.js';
import { listingOf, type Listing } from '../../core/pagination.js';
import type { AppState } from '../../state/app-state.js';
import { anonymousProblems, byCreation, findAnonymous, write, type CustomerInput } from '../customers/rules.js';
import { joined } from '../../engine/join-log.js';
import { convertIntoUser } from '../cross-resource/merge.js';
import type { Store } from '../../state/store.js';
import type { Customer } from '../../engine/types.js';
import type { StaticOf } from '../../schemas/json-schema.js';
import type { convertLeadBodySchema } from './shapes.js';
import { phoneMaps } from '../customers/indexes.js';

/** GET /contacts?user_id=: one lead, or a 404. */
export function leadByUserId(app: AppState, userId: string): Customer {
  return findAnonymous(app, 'contact', { user_id: userId }) as Customer;
}

/**
 * GET /contacts?phone= (1.2 on): the one lead with that phone (as stored, compared exactly); of
 * several, the most recently created, reported [I]; none: 404.
 */
export function leadByPhone(app: AppState, phone: string): Customer {
  const leads = leadsByPhone(app, phone);
  if (leads.total === 0) throw notFound('Lead Not Found');
  if (leads.total > 1) app.warn('ambiguous_lookup', `phone ${JSON.stringify(phone)} names ${leads.total} leads: the most recently created answers.`, 'phone');
  return leads.slice(leads.total - 1, leads.total)[0] as Customer;
}

/** Every lead with that phone (as stored, compared exactly), oldest first. */
function leadsByPhone(app: AppState, phone: string): Listing<Customer> {
  const { customers } = app.data;
  const found = joined(phoneMaps(app), phone, (id) => {
    const c = customers.get(id);
    // Stryker disable next-line OptionalChaining: equivalent, a removed customer leaves the phone index, so every id read is live
    return c?.type === 'contact' && c.phone === phone ? c : undefined;
  });
  return listingOf(found.sort(byCreation));
}

/** PUT /contacts/{id}, PUT /contacts: the update of POST /contacts, but only ever of an existing lead. */
export function updateLead(store: Store, app: AppState, keys: { id?: string; user_id?: string | null }, input: CustomerInput): Customer {
  const lead = findAnonymous(app, 'contact', keys);
  if (!lead) throw missing('id', 'The lead to update is named by id or user_id.');
  // Stryker disable next-line StringLiteral: equivalent, message wording (the kind named in the problem's message)
  return write(store, app, lead, input, {}, anonymousProblems(input, 'lead'));
}

/** What the request sends, as its schema declares it. */
export type LeadConvertInput = StaticOf<typeof convertLeadBodySchema>;

/**
 * POST /contacts/convert. The user the `user` keys match (id, then user_id, then email; an archived
 * one comes back) absorbs the lead: the user's values win, the lead fills only what the user lacks
 * (never its id, user_id or email), companies, tags and segments join, and the lead is deleted.
 * When none matches, the lead itself becomes that user: same id, the given user_id (the lead's
 * UUID dropped), the given email or else the lead's.
 */
export function convertLead(store: Store, app: AppState, input: LeadConvertInput): Customer {
  const lead = findAnonymous(app, 'contact', input.contact ?? {});
  if (!lead) throw missing('contact.user_id', 'The lead to convert is named by contact.id or contact.user_id.');
  return convertIntoUser(store, app, lead, input.user ?? {}, store.now());
}
