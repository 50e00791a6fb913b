// The byte budgets' estimate of a kept JSON value (README "Byte budgets"), written out again here so
// tests check the mock's figures against an independent count: a string 16 + 2 a character, a
// number 16, null or a boolean 8, an array 32 + 8 a slot, an object 32 + 24 + 2 a key character
// per member, each member's value counted the same way.

export function estimate(value: unknown): number {
  if (typeof value === 'string') return 16 + 2 * value.length;
  if (typeof value === 'number') return 16;
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + estimate(v), 32 + 8 * value.length);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).reduce((sum, [k, v]) => sum + 24 + 2 * k.length + estimate(v), 32);
  }
  return 8;
}

/** A queued webhook delivery: 256 for the job beside its notification. */
export const deliveryEstimate = (notification: unknown): number => 256 + estimate(notification);

/** An error-feed entry as GET /subscriptions/{id}/error renders it: 256 beside the notification and the exchange. */
export function entryEstimate(rendered: Record<string, unknown>): number {
  const { http_request, ...notification } = rendered;
  return 256 + estimate(notification) + estimate(http_request);
}
