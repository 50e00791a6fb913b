// Named schemas: the OpenAPI document lists these under components.schemas and refers to them by
// $ref wherever a route uses the same schema object. Order here is the document's order.

import { adminListSchema, adminSchema, teamSchema } from '../resources/admins/shapes.js';
import { customAttributesSchema, errorListSchema, pagesSchema, tagListSchema, tagSchema } from './common.js';
import { companySchema } from '../resources/companies/shapes.js';
import { conversationListSchema, conversationSchema, customersListSchema, partSchema } from '../resources/conversations/shapes.js';
import { countResponseSchema } from '../resources/counts/shapes.js';
import {
  contactListSchema,
  customerSchema,
  leadSchema,
  locationDataSchema,
  userListSchema,
  userOrLeadSchema,
  userSchema,
  visitorSchema,
} from '../resources/customers/shapes.js';
import { dataAttributeListSchema, dataAttributeSchema } from '../resources/data-attributes/shapes.js';
import { eventListSchema, eventSchema, eventSummarySchema } from '../resources/events/shapes.js';
import { jobErrorFeedSchema, jobSchema } from '../resources/jobs/shapes.js';
import type { Schema } from './json-schema.js';
import { companyListSchema, segmentListSchema, segmentSchema } from '../resources/segments/shapes.js';

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
