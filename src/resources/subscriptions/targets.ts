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

/** The IPv4 address an IPv4-mapped IPv6 address carries (`::ffff:127.0.0.1`, which URL writes `::ffff:7f00:1`). */
function mappedIPv4(address: string): string | undefined {
  const m = /^(?:0{0,4}:){0,5}:?ffff:(?:(\d{1,3}(?:\.\d{1,3}){3})|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return undefined;
  if (m[1] !== undefined) return m[1];
  const [hi, lo] = [parseInt(m[2] as string, 16), parseInt(m[3] as string, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export function isLoopbackAddress(address: string): boolean {
  const v4 = isIP(address) === 4 ? address : mappedIPv4(address);
  if (v4 !== undefined) return v4.startsWith('127.');
  return address === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(address);
}

/** Whether a subscription's URL is one the mock delivers to, by its text (the self check is at send time). */
export function isAllowedTarget(url: string, hosts: WebhookHosts): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (hosts === 'none') return false;
  return hosts === 'any' || LOOPBACK_NAME.test(parsed.hostname) || isLoopbackAddress(parsed.hostname.replace(/^\[|\]$/g, ''));
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

/**
 * Whether the URL may reach the mock itself: its port, on an address of this machine (after DNS;
 * mapped IPv6 forms read as their IPv4). A name that does not resolve counts as the mock: the send
 * would resolve it again, and a name that answers differently then must not get through.
 */
export async function isSelf(url: string, port: number | undefined): Promise<boolean> {
  if (port === undefined) return false;
  const target = new URL(url);
  const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  if (targetPort !== port) return false;
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) !== 0 ? [host] : await lookup(host, { all: true }).then((found) => found.map((a) => a.address), () => undefined);
  if (addresses === undefined) return true;
  const local = localAddresses();
  return addresses.some((a) => isLoopbackAddress(a) || local.has(a) || local.has(mappedIPv4(a) ?? ''));
}
