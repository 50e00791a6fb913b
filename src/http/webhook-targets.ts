// Where webhook deliveries may go. A subscription names any URL; the mock delivers only to the
// hosts --webhook-hosts allows (loopback by default, nowhere by default when it listens beyond
// loopback, where any peer could otherwise make it call this machine's own services), and never
// to itself: a webhook may not reach the mock's control plane or its API.

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** loopback: localhost, 127.0.0.0/8, [::1]; any: every host; none: no delivery at all. */
export type WebhookHosts = 'loopback' | 'any' | 'none';

const LOOPBACK_NAME = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The rule for a mock listening on `host` when --webhook-hosts names none. */
export const defaultWebhookHosts = (host: string): WebhookHosts => (isLoopbackAddress(host.replace(/^\[|\]$/g, '')) || host === 'localhost' ? 'loopback' : 'none');

export function isLoopbackAddress(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1' || /^::ffff:127\./i.test(address);
}

/** Whether a subscription's URL is one the mock delivers to, by its text (the self check is at send time). */
export function isAllowedTarget(url: string, hosts: WebhookHosts): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (hosts === 'none') return false;
  return hosts === 'any' || LOOPBACK_NAME.test(parsed.hostname);
}

/** What an attempt to a URL the rule refuses records as the receiver's answer. */
export function refusal(hosts: WebhookHosts): string {
  return hosts === 'none'
    ? 'Target refused: the mock listens beyond loopback, so it delivers webhooks only when started with --webhook-hosts loopback or any'
    : 'Target refused: webhooks go to loopback addresses unless the mock runs with --webhook-hosts any';
}

export const SELF_REFUSAL = "Target refused: the mock's own address (a webhook may not call the mock itself)";

function localAddresses(): Set<string> {
  const out = new Set(['0.0.0.0', '::']);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.add(a.address);
  return out;
}

/** Whether the URL reaches the mock itself: its port, on an address of this machine (after DNS). */
export async function isSelf(url: string, port: number | undefined): Promise<boolean> {
  if (port === undefined) return false;
  const target = new URL(url);
  const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  if (targetPort !== port) return false;
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  const local = localAddresses();
  return addresses.some((a) => isLoopbackAddress(a) || local.has(a));
}
