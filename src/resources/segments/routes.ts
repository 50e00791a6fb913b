import { notFound } from '../../core/errors.js';
import { openObj, str } from '../../schemas/json-schema.js';
import { includeCountQuery, segmentListSchema, segmentSchema } from './shapes.js';
import { listSegments, requireSegment, segmentType } from './rules.js';
import { segmentListView, segmentView } from './view.js';
import { appRoute } from '../../http/route.js';

export const listSegmentsRoute = appRoute({
  method: 'GET',
  path: '/segments',
  operationId: 'listSegments',
  summary: 'List the segments',
  description:
    'The user segments (members: users and leads), or with type=company the company segments, in fixture order, unpaged. include_count=true adds count, the live members. Another type answers 400 bad_request.',
  tag: 'Segments',
  query: openObj({ type: str({ description: 'user (default) or company' }), ...includeCountQuery }),
  response: { status: 200, description: 'The segment list', schema: segmentListSchema },
  errors: ['bad_request', 'parameter_invalid'],
  examples: { query: { type: 'user', include_count: 'true' } },
  handler: ({ app, query }) => ({ body: segmentListView(app, listSegments(app, segmentType(query.type)), query.include_count === 'true') }),
});

export const getSegment = appRoute({
  method: 'GET',
  path: '/segments/{id}',
  operationId: 'getSegment',
  summary: 'Fetch a segment',
  description: 'A user or company segment by id; include_count=true adds count, the live members. Unknown: 404 not_found.',
  tag: 'Segments',
  params: { id: str({ description: 'The segment id' }) },
  query: openObj(includeCountQuery),
  response: { status: 200, description: 'The segment', schema: segmentSchema },
  errors: ['not_found', 'parameter_invalid'],
  examples: { params: { id: '5714dd359a3fd47136000901' }, query: { include_count: 'true' } },
  handler: ({ app, params, query }) => ({ body: segmentView(app, requireSegment(app, params.id ?? ''), query.include_count === 'true') }),
});

/** Segments are read-only in the v1 API: Java's Segment.update gets the answer of a path that does not exist. */
export const updateSegment = appRoute({
  method: 'POST',
  path: '/segments',
  operationId: 'updateSegment',
  summary: 'Segments cannot be written (always 404)',
  description:
    'The Java client\'s Segment.update posts here, but v1 segments are read-only: the answer is the real API\'s unknown-path 404 not_found "The requested resource does not exist; check your path and try again", and nothing changes.',
  tag: 'Segments',
  body: openObj({}),
  response: { status: 200, description: 'Never answered', schema: segmentSchema },
  errors: ['not_found', 'bad_request', 'unsupported_media_type', 'request_too_large'],
  examples: { body: {}, status: 404 },
  handler: () => {
    throw notFound('The requested resource does not exist; check your path and try again');
  },
});

export const SEGMENT_ROUTES = [listSegmentsRoute, getSegment, updateSegment];
