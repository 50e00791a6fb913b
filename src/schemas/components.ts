// Named schemas: the OpenAPI document lists these under components.schemas and refers to them by
// $ref wherever a route uses the same schema object. Order here is the document's order.

import { adminListSchema, adminSchema, teamSchema } from './admin.js';
import { customAttributesSchema, errorListSchema, pagesSchema, tagListSchema, tagSchema } from './common.js';
import { companySchema } from './company.js';
import { conversationListSchema, conversationSchema, customersListSchema, partSchema } from './conversation.js';
import { countResponseSchema } from './count.js';
import {
  contactListSchema,
  customerSchema,
  leadSchema,
  locationDataSchema,
  userListSchema,
  userOrLeadSchema,
  userSchema,
  visitorSchema,
} from './customer.js';
import { dataAttributeListSchema, dataAttributeSchema } from './data-attribute.js';
import { eventListSchema, eventSchema, eventSummarySchema } from './event.js';
import { jobErrorFeedSchema, jobSchema } from './job.js';
import type { Schema } from './json-schema.js';
import { companyListSchema, segmentListSchema, segmentSchema } from './segment.js';

export const COMPONENTS: ReadonlyArray<readonly [string, Schema]> = [
  ['Error', errorListSchema],
  ['Pages', pagesSchema],
  ['Tag', tagSchema],
  ['TagList', tagListSchema],
  ['CustomAttributes', customAttributesSchema],
  ['LocationData', locationDataSchema],
  ['Customer', customerSchema],
  ['User', userSchema],
  ['Lead', leadSchema],
  ['Visitor', visitorSchema],
  ['UserOrLead', userOrLeadSchema],
  ['UserList', userListSchema],
  ['ContactList', contactListSchema],
  ['Company', companySchema],
  ['CompanyList', companyListSchema],
  ['Segment', segmentSchema],
  ['SegmentList', segmentListSchema],
  ['Count', countResponseSchema],
  ['DataAttribute', dataAttributeSchema],
  ['DataAttributeList', dataAttributeListSchema],
  ['Admin', adminSchema],
  ['Team', teamSchema],
  ['AdminList', adminListSchema],
  ['Conversation', conversationSchema],
  ['ConversationPart', partSchema],
  ['ConversationList', conversationListSchema],
  ['ConversationCustomers', customersListSchema],
  ['Event', eventSchema],
  ['EventList', eventListSchema],
  ['EventSummary', eventSummarySchema],
  ['Job', jobSchema],
  ['JobErrorFeed', jobErrorFeedSchema],
];
