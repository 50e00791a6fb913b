// The scroll API: GET /users/scroll, /contacts/scroll and /companies/scroll (surface U4, L3, C4).
// Registered before /users/{id} and its kind, so `scroll` is never read as an id.

import type { ErrorCode } from '../../core/errors.js';
import { companyScrollSchema, leadScrollSchema, scrollQuerySchema, userScrollSchema } from './shapes.js';
import type { Schema } from '../../schemas/json-schema.js';
import { scrollPage, SCROLL_IDLE_SECONDS, SCROLL_PAGE_SIZE, type ScrollKind } from './rules.js';
import type { Company, Customer } from '../../engine/types.js';
import { companyView } from '../companies/view.js';
import { customerView } from '../customers/view.js';
import { appRoute, type AppInput } from '../../http/route.js';

const RULES = `${SCROLL_PAGE_SIZE} a page, in list order as it stood when the scroll opened (records removed since are skipped; records added since are not included). One scroll per app, shared by users, leads and companies: opening another while it is live is a 400 scroll_exists. It expires after ${SCROLL_IDLE_SECONDS} s without use on the mock's clock (every page extends it); an expired or unknown scroll_param, or one of another resource's scroll, is a 400 parameter_invalid. The empty page that ends the scroll frees the slot.`;

const ERRORS: readonly ErrorCode[] = ['scroll_exists', 'parameter_invalid'];

function scrollRoute(kind: ScrollKind, path: string, operationId: string, tag: string, what: string, listType: string, key: string, schema: Schema) {
  const view = (input: AppInput, record: Customer | Company) => (kind === 'company' ? companyView(input.app, record as Company) : customerView(input.app, record as Customer));
  return appRoute({
    method: 'GET',
    path,
    operationId,
    summary: `Scroll through every ${what}`,
    description: `Every ${what} of the app, ${RULES}`,
    tag,
    query: scrollQuerySchema,
    response: { status: 200, description: `A page of ${what}s`, schema },
    errors: ERRORS,
    examples: { query: { scroll_param: '' } },
    handler: (input) => {
      const sent = input.query.scroll_param;
      const { items, param } = scrollPage(input.app, kind, typeof sent === 'string' && sent !== '' ? sent : undefined, input.store.now());
      return { body: { type: listType, [key]: items.map((r) => view(input, r)), scroll_param: param } };
    },
  });
}

export const scrollUsers = scrollRoute('user', '/users/scroll', 'scrollUsers', 'Users', 'user', 'user.list', 'users', userScrollSchema);
export const scrollLeads = scrollRoute('contact', '/contacts/scroll', 'scrollLeads', 'Leads', 'lead', 'contact.list', 'contacts', leadScrollSchema);
export const scrollCompanies = scrollRoute('company', '/companies/scroll', 'scrollCompanies', 'Companies', 'company', 'company.list', 'companies', companyScrollSchema);

export const SCROLL_ROUTES = [scrollUsers, scrollLeads, scrollCompanies];
