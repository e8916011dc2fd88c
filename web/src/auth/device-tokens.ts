/**
 * Device tokens this browser was handed at sign-in, by email. Sent back with the next sign-in of the
 * same email, a token shows the server this browser signed in to the account before, so strangers'
 * failed attempts on the account never hold that sign-in back. Kept across sign-outs on purpose.
 */
const STORAGE_KEY = 'mallfront.devices';
/** A browser shared by many accounts keeps the most recent ones. */
const MAX_EMAILS = 20;

function all(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

const key = (email: string) => email.trim().toLowerCase();

export function deviceTokenFor(email: string): string | undefined {
  const token = all()[key(email)];
  return typeof token === 'string' ? token : undefined;
}

export function rememberDevice(email: string, token: string): void {
  const { [key(email)]: _previous, ...others } = all();
  const kept = Object.entries(others).slice(-(MAX_EMAILS - 1));
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries([...kept, [key(email), token]])));
  } catch {
    // Storage full or refused: the next sign-in is treated as a new device, nothing worse.
  }
}
