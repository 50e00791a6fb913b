// Data events: the POST /events body, the GET /events query and the event list and summary shapes.

import { shortText, unixTime } from '../../schemas/fields.js';
import { anyOf, arr, constant, int, nullable, obj, oneOfStrings, openObj, str, type Schema } from '../../schemas/json-schema.js';

/** Members one metadata object may carry; past the first ten they are ignored, as the real API did. */
export const MAX_METADATA_SENT = 100;

export const EVENT_DEFAULT_PER_PAGE = 15;
export const EVENT_MAX_PER_PAGE = 60;

const metadataInput: Schema = {
  type: 'object',
  maxProperties: MAX_METADATA_SENT,
  description: `At most ${MAX_METADATA_SENT} members, of which the first 10 are kept in the order sent. Values: text, a number, a date (a key ending _date, Unix seconds), a rich link {"url","value"} or a monetary amount {"amount" (integer cents),"currency"}.`,
};

export const eventBodySchema = openObj(
  {
    event_name: shortText({ minLength: 1, description: 'The event, e.g. invited-friend.' }),
    created_at: unixTime({ description: 'When it happened, Unix seconds.' }),
    user_id: nullable(shortText({ description: 'The user\'s own id.' })),
    email: nullable(shortText({ description: 'The user\'s email, when no user_id is sent.' })),
    id: nullable(str({ maxLength: 64, description: 'The id the server assigned to a user or a lead (the way to name a lead).' })),
    metadata: metadataInput,
  },
  ['event_name', 'created_at'],
);

export const eventListQuerySchema = openObj({
  type: str({ description: 'Must be user.' }),
  user_id: str(),
  email: str(),
  intercom_user_id: str({ description: 'The id the server assigned (users and leads).' }),
  per_page: int({ minimum: 1, maximum: EVENT_MAX_PER_PAGE, default: EVENT_DEFAULT_PER_PAGE, description: `Page size, 1 to ${EVENT_MAX_PER_PAGE}.` }),
  before: str({ maxLength: 40, description: 'The cursor of a next link: events older than it.' }),
  summary: oneOfStrings(['true', 'false'], { description: 'true: one entry per event name instead of the events.' }),
});

export const metadataOutput: Schema = {
  type: 'object',
  additionalProperties: {
    anyOf: [
      { type: 'string' },
      { type: 'number' },
      obj({ url: str(), value: str() }, ['url', 'value']),
      obj({ amount: int(), currency: str() }, ['amount', 'currency']),
    ],
  },
};

export const eventSchema = obj(
  {
    type: constant('event'),
    id: str(),
    event_name: str(),
    created_at: int(),
    user_id: nullable(str()),
    email: nullable(str()),
    intercom_user_id: str(),
    metadata: metadataOutput,
  },
  ['type', 'id', 'event_name', 'created_at', 'user_id', 'email', 'intercom_user_id', 'metadata'],
);

export const eventListSchema = obj(
  { type: constant('event.list'), events: arr(eventSchema), pages: obj({ next: str({ description: 'Absent on the last page.' }) }) },
  ['type', 'events', 'pages'],
);

export const eventSummarySchema = obj(
  {
    type: constant('event.summary'),
    email: nullable(str()),
    intercom_user_id: str(),
    user_id: nullable(str()),
    events: arr(
      obj({ name: str(), first: str({ description: 'ISO 8601' }), last: str({ description: 'ISO 8601' }), count: int({ minimum: 1 }), description: { type: 'null' } }, [
        'name',
        'first',
        'last',
        'count',
        'description',
      ]),
    ),
  },
  ['type', 'email', 'intercom_user_id', 'user_id', 'events'],
);

export const eventListOrSummarySchema = anyOf(eventListSchema, eventSummarySchema);
