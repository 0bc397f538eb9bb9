// The http(s) URL rule (src/shapes.ts HTTP_URL_PATTERN): the document's pattern is the whole rule,
// so every string it matches must be a URL the server can call. The clean-clone fuzz pass found
// `HTTP:` (a URI by `format: uri`) refused by the server's URL parser before the rule was one pattern.
// No `user:password@` either: a credential in a URL would be answered to every reader (docs/http.md
// "Credentials in URLs"), so the pattern, and with it the document, refuses a userinfo.
import { describe, expect, it } from 'vitest';
import { HTTP_URL_PATTERN, HttpUrl, httpUrl } from '../../../src/shapes.js';

const pattern = new RegExp(HTTP_URL_PATTERN);

/** An http(s) URL to the WHATWG parser, and one without a user name or password. */
function parsesAsHttp(s: string): boolean {
  try {
    const url = new URL(s);
    return /^https?:$/.test(url.protocol) && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** A small seeded generator (mulberry32): the same strings on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('HttpUrl', () => {
  it.each([
    'http://a',
    'HTTPS://Hooks.Example.com/services/T0/B0/xyz?x=1#top',
    'http://127.0.0.1:41241/',
    'http://ollama.intranet:11434/v1',
    'https://example.com/x?token=abc&next=a@b#user@host',
    'http://a:65535',
    'http://xn--fiqs8s.com/',
  ])('takes %s', (url) => {
    expect(HttpUrl.safeParse(url).success).toBe(true);
    expect(parsesAsHttp(url)).toBe(true);
  });

  it.each([
    ['HTTP:', 'no host (a URI all the same)'],
    ['http:/a', 'one slash'],
    ['ftp://example.com', 'another scheme'],
    ['http://[::1]/', 'an IPv6 literal'],
    ['http://1.2.3.4.5', 'a host the parser reads as a bad IPv4 address'],
    ['http://a.1', 'a last label that is a number'],
    ['http://a:65536', 'a port above 65535'],
    ['http://a b', 'a space'],
    ['http://例子.com', 'characters outside ASCII'],
  ])('refuses %s (%s)', (url) => {
    const result = HttpUrl.safeParse(url);
    expect(result.success).toBe(false);
    // A URL issue, not a pattern one: a Chinese answer says 无效URL rather than quoting the pattern.
    expect(result.error?.issues[0]).toMatchObject({ code: 'invalid_format', format: 'url' });
  });

  it.each([
    'https://user:p%40ss@example.com/x',
    'http://token@hooks.example.com/',
    'http://:secret@127.0.0.1:8080',
    'https://example.com@evil.example/',
  ])('refuses %s: credentials in a URL, with words that say where they go instead', (url) => {
    const result = httpUrl('send the key as apiKey').safeParse(url);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      code: 'invalid_format',
      format: 'url',
      message: 'must not carry a user name or password (user:password@): send the key as apiKey',
    });
    expect(HttpUrl.safeParse(url).success).toBe(false);
  });

  it('matches only strings the URL parser reads as http(s) URLs without a user name or password', () => {
    const next = random(28);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const chars = "aA0-._~:@/?#[]%!$&'()*+,;=x9 \u00e9\t".split('');
    const text = (max: number) => Array.from({ length: Math.floor(next() * max) }, () => pick(chars)).join('');
    const label = () => Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick('ab-09xZ'.split(''))).join('');
    const host = () =>
      next() < 0.3
        ? Array.from({ length: pick([3, 4, 4, 5]) }, () => Math.floor(next() * 300)).join('.')
        : Array.from({ length: 1 + Math.floor(next() * 3) }, label).join('.');
    let matched = 0;
    for (let i = 0; i < 20_000; i++) {
      const s =
        `${pick(['http', 'HTTPS', 'hTtP', 'ftp'])}${pick([':', '://', '://', '://', ':/'])}` +
        `${next() < 0.2 ? `${text(5)}@` : ''}${host()}` +
        `${pick(['', '', ':', `:${Math.floor(next() * 70_000)}`, `:0${Math.floor(next() * 9)}`])}` +
        `${next() < 0.7 ? `${pick(['/', '?', '#', ''])}${text(10)}` : ''}`;
      if (!pattern.test(s)) continue;
      matched++;
      expect(parsesAsHttp(s), s).toBe(true);
    }
    // The generator reaches the pattern often enough for the check to mean something.
    expect(matched).toBeGreaterThan(1_000);
  });
});
