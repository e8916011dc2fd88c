import dns from 'node:dns';
import net from 'node:net';

/**
 * Where a webhook may not go (SSRF): this machine, the private networks behind it, link-local
 * (cloud metadata at 169.254.169.254), and addresses that are not unicast. Checked when an endpoint
 * is saved (after DNS) and again when each attempt connects (the resolved address the socket
 * uses), so a name that later resolves elsewhere (DNS rebinding) is still refused.
 */
const BLOCKED = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** True for an address a webhook may not reach (IPv4-mapped IPv6 is judged as the IPv4 inside). */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class WebhookTargetRefused extends Error {}

export interface TargetRules {
  allowPrivate: boolean;
  allowHttp: boolean;
}

/** The URL's problem as a sentence, or null: https (http in development only), no credentials, a host. */
export function urlProblem(raw: string, rules: TargetRules): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) return rules.allowHttp ? 'must be http or https' : 'must be https';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not have a fragment';
  return null;
}

/** Every address the URL's host resolves to; refused when any of them is blocked (unless allowed). */
export async function checkTargetAddresses(raw: string, rules: TargetRules): Promise<void> {
  const host = hostOf(new URL(raw));
  const addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  if (rules.allowPrivate) return;
  const blocked = addresses.find(isBlockedAddress);
  if (blocked) throw new WebhookTargetRefused(`${host} resolves to ${blocked}, a private, loopback or link-local address`);
}

/** The host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * `lookup` for the delivery's socket: resolves, then refuses a blocked address, so the address
 * connected to is the one checked (no second lookup between check and connect).
 */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses;
      const bad = allowPrivate ? undefined : list.find((a) => isBlockedAddress(a.address));
      if (bad) return callback(new WebhookTargetRefused(`${hostname} resolves to ${bad.address}, a private, loopback or link-local address`), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
