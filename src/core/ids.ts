// Ids in the real API's formats: 24-hex object ids for customers, companies and conversations
// (timestamp, per-app machine part, counter, like 5714dd359a3fd47136000001), numeric strings for
// tags, admins and teams, and 20-character request ids. All derived from the seed, never the wall.

import { hashSeed, Random } from './random.js';

export function machinePart(seed: number, appId: string): string {
  return new Random(hashSeed(seed, appId, 'machine')).hex(10);
}

export function objectId(seconds: number, machine: string, counter: number): string {
  const ts = (Math.max(0, Math.floor(seconds)) >>> 0).toString(16).padStart(8, '0');
  return `${ts}${machine}${(counter & 0xffffff).toString(16).padStart(6, '0')}`;
}

/**
 * Request ids: 20 lowercase alphanumerics, a deterministic stream per app (scope = the app id) and
 * one for the store (requests that reach no app, and the control plane).
 */
export class RequestIds {
  readonly random: Random;

  constructor(seed: number, ...scope: string[]) {
    this.random = new Random(hashSeed(seed, ...scope, 'request-ids'));
  }

  next(): string {
    return this.random.base36(20);
  }
}
