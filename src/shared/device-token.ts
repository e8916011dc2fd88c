import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DeviceTokenConfig } from '../config.js';

/**
 * Device tokens (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): every successful
 * sign-in hands the client a token signed for its email; a client that sends it back with the next
 * sign-in of that email is a device the owner used before, and is exempt from the limits strangers
 * can trigger (see `AuthThrottle`). Nothing is stored: the token is `d1.<nonce>.<issued>.<mac>`,
 * the MAC (HMAC-SHA256 with DEVICE_TOKEN_SECRET) covers the email, the nonce and the issue time, so
 * a token is worthless for any other email and cannot be made without the secret. The nonce names
 * the device in the counts, so a stolen token that guesses wrong is locked out on its own.
 */
const VERSION = 'd1';
const MAC_BYTES = 32;

function mac(secret: string, email: string, nonce: string, issued: string): Buffer {
  return createHmac('sha256', secret).update(`${VERSION}\n${email}\n${nonce}\n${issued}`).digest();
}

export function issueDeviceToken(config: DeviceTokenConfig, email: string, now = Date.now()): string {
  const nonce = randomBytes(16).toString('base64url');
  const issued = Math.floor(now / 1000).toString(36);
  return `${VERSION}.${nonce}.${issued}.${mac(config.secret, email, nonce, issued).toString('base64url')}`;
}

/**
 * The device a token names (its nonce) when the token is genuine, issued for `email` and not older
 * than DEVICE_TOKEN_TTL_DAYS; otherwise null, and the sign-in is treated as coming from a device
 * never seen (a token from before a secret change, say, is no error).
 */
export function verifiedDevice(config: DeviceTokenConfig, email: string, token: string | null | undefined, now = Date.now()): string | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) return null;
  const [, nonce, issued, sent] = parts;
  if (!/^[\w-]{22}$/.test(nonce) || !/^[0-9a-z]{1,10}$/.test(issued)) return null;
  const given = Buffer.from(sent, 'base64url');
  if (given.length !== MAC_BYTES || !timingSafeEqual(given, mac(config.secret, email, nonce, issued))) return null;
  const issuedMs = parseInt(issued, 36) * 1000;
  if (issuedMs > now + 60_000 || now - issuedMs > config.ttlDays * 86_400_000) return null;
  return nonce;
}
