import { safeRedirect } from '../web/src/auth/safe-redirect.js';

/** Spec "Client sign-in behaviour": after sign-in, only a same-origin path is followed; anything else lands on `/`. */
describe('safeRedirect (web/src/auth/safe-redirect.ts)', () => {
  const hostile: [string, string | null | undefined][] = [
    ['protocol-relative', '//evil.example'],
    ['protocol-relative with path', '//evil.example/products/1'],
    ['slash backslash', '/\\evil.example'],
    ['backslash slash', '\\/evil.example'],
    ['double backslash', '\\\\evil.example'],
    ['absolute https', 'https://evil.example'],
    ['absolute http, one slash', 'http:/evil.example'],
    ['absolute http, no slash', 'http:evil.example'],
    ['javascript scheme', 'javascript:alert(1)'],
    ['javascript scheme, mixed case', 'JaVaScRiPt:alert(1)'],
    ['data URL', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['vbscript scheme', 'vbscript:msgbox(1)'],
    ['encoded slashes', '/%2F%2Fevil.example'],
    ['encoded slash after slash', '/%2Fevil.example'],
    ['encoded backslash', '/%5Cevil.example'],
    ['encoded backslash, lower case', '/%5cevil.example'],
    ['double-encoded slashes', '/%252F%252Fevil.example'],
    ['double-encoded backslash', '/%255Cevil.example'],
    ['triple-encoded slashes', '/%25252F%25252Fevil.example'],
    ['fully encoded protocol-relative', '%2F%2Fevil.example'],
    ['tab inside the scheme', 'java\tscript:alert(1)'],
    ['newline inside the scheme', 'java\nscript:alert(1)'],
    ['tab between slashes', '/\t/evil.example'],
    ['newline between slashes', '/\n/evil.example'],
    ['carriage return between slashes', '/\r/evil.example'],
    ['encoded tab between slashes', '/%09/evil.example'],
    ['encoded newline between slashes', '/%0A/evil.example'],
    ['leading space', ' /products/1'],
    ['at sign host', '@evil.example'],
    ['userinfo-looking', '//user@evil.example'],
    ['dot segment into protocol-relative', '/.//evil.example'],
    ['parent segment into protocol-relative', '/a/..//evil.example'],
    ['malformed percent escape', '/products/%E0%A4%A'],
    ['null byte', '/products/1\u0000'],
    ['line separator', '/products\u20281'],
    ['very long value', `/${'a'.repeat(5000)}`],
    ['empty value', ''],
    ['missing value', null],
    ['undefined value', undefined],
    ['relative path without slash', 'products/1'],
    ['sign-in page itself (a loop)', '/login?redirect=/cart'],
  ];

  it.each(hostile)('refuses %s', (_name, target) => {
    expect(safeRedirect(target)).toBe('/');
  });

  const accepted: [string, string][] = [
    ['/', '/'],
    ['/products/12', '/products/12'],
    ['/search?q=tea%20set', '/search?q=tea%20set'],
    ['/categories/3?sort=price&order=desc&page=2', '/categories/3?sort=price&order=desc&page=2'],
    ['/cart#lines', '/cart#lines'],
    ['/shops/tech-harbor', '/shops/tech-harbor'],
    ['/orders/5/../7', '/orders/7'],
  ];

  it.each(accepted)('follows the same-origin path %s', (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });

  it('uses the given fallback', () => {
    expect(safeRedirect('//evil.example', '/account')).toBe('/account');
  });
});
