import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may go (SSRF): only global unicast addresses. Everything else is refused: this
 * machine, the private networks behind it, link-local (cloud metadata at 169.254.169.254),
 * unique-local and site-local, multicast, documentation and benchmarking ranges, and every IPv6 form
 * that reaches an IPv4 address through a translator or a tunnel (IPv4-compatible, SIIT, NAT64,
 * 6to4, Teredo), which is also judged by the IPv4 address it embeds. The ranges are ipaddr.js's
 * (a maintained list of the IANA special-purpose registries), not prefixes written here. Checked when
 * an endpoint is saved (after DNS) and again when each attempt connects (the resolved address the
 * socket uses), so a name that later resolves elsewhere (DNS rebinding) is still refused.
 */

/** How ipaddr.js's range names read in a refusal; a range not listed reads by its name. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  private: 'a private address',
  reserved: 'a reserved (documentation or future use) address',
  benchmarking: 'a benchmarking address',
  uniqueLocal: 'a unique-local address',
  deprecatedSiteLocal: 'a site-local address',
  discard: 'a discard-only address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated (SIIT) address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};
const words = (range: string) => RANGE_WORDS[range] ?? `a special-purpose (${range}) address`;

/** 2000::/3: the only IPv6 addresses allocated for global unicast (RFC 4291). */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
/** The deprecated IPv4-compatible form `::a.b.c.d` (RFC 4291 2.5.5.1), which ipaddr.js does not name. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

const ipv4Of = (high: number, low: number) => ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4;

/** The IPv4 address an IPv6 address carries, in each form that carries one, with the form's range name. */
function embeddedIPv4(address: ipaddr.IPv6): { ipv4: ipaddr.IPv4; form: string } | null {
  const p = address.parts;
  const range: string = address.range();
  // Mapped, SIIT and NAT64 (the well-known /96 prefix, and the local-use /48 read the same way) carry it last.
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return { ipv4: ipv4Of(p[6], p[7]), form: range };
  if (range === '6to4') return { ipv4: ipv4Of(p[1], p[2]), form: range };
  // Teredo: the client's address, bits inverted, in the last 32 bits.
  if (range === 'teredo') return { ipv4: ipv4Of(~p[6] & 0xffff, ~p[7] & 0xffff), form: range };
  if (range === 'unicast' && address.match(IPV4_COMPATIBLE)) return { ipv4: ipv4Of(p[6], p[7]), form: 'IPv4-compatible' };
  return null;
}

function ipv4Problem(address: ipaddr.IPv4): string | null {
  const range: string = address.range();
  return range === 'unicast' ? null : words(range);
}

/**
 * Why a webhook may not be sent to this IP address (a sentence: "a loopback address"), or null when
 * it may. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is the IPv4 address itself, as a dual-stack
 * socket connects to it; every other form carrying an IPv4 address is refused, naming the embedded
 * address when that one is refused as well.
 */
export function addressProblem(text: string): string | null {
  if (!ipaddr.isValid(text)) return 'not an IP address';
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv4') return ipv4Problem(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  const range: string = v6.range();
  if (range === 'unspecified' || range === 'loopback') return words(range);
  const embedded = embeddedIPv4(v6);
  if (embedded) {
    const inner = ipv4Problem(embedded.ipv4);
    if (inner) return `an IPv6 form of ${embedded.ipv4.toString()}, ${inner}`;
    if (embedded.form === 'ipv4Mapped') return null;
    const form = embedded.form === 'IPv4-compatible' ? 'an IPv4-compatible address (deprecated)' : words(embedded.form);
    return `${form}: it reaches ${embedded.ipv4.toString()} through a translator or tunnel, not directly`;
  }
  if (range !== 'unicast') return words(range);
  if (!v6.match(GLOBAL_UNICAST)) return 'not a global unicast address (outside 2000::/3)';
  return null;
}

/** `localhost` and every name under it are this machine (RFC 6761), whatever a resolver says. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
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

const refusal = (host: string, address: string, problem: string) =>
  new WebhookTargetRefused(host === address ? `${host} is ${problem}` : `${host} resolves to ${address}, ${problem}`);

/** Every address the URL's host resolves to; refused when any of them is (unless allowed). */
export async function checkTargetAddresses(raw: string, rules: TargetRules): Promise<void> {
  const host = hostOf(new URL(raw));
  if (rules.allowPrivate) return;
  if (isLocalhostName(host)) throw new WebhookTargetRefused(`${host} names this machine`);
  const addresses = net.isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  for (const address of addresses) {
    const problem = addressProblem(address);
    if (problem) throw refusal(host, address, problem);
  }
}

/** The host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * `lookup` for the delivery's socket: resolves, then refuses when any address is refused, so the
 * address connected to is one checked (no second lookup between check and connect).
 */
export function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    if (!allowPrivate && isLocalhostName(hostname)) return callback(new WebhookTargetRefused(`${hostname} names this machine`), '', 0);
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      for (const { address } of allowPrivate ? [] : addresses) {
        const problem = addressProblem(address);
        if (problem) return callback(refusal(hostname, address, problem), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
