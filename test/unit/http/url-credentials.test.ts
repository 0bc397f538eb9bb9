// Credentials in URLs (docs/http.md "Credentials in URLs"): which query parameters are secret, how
// a read answers a URL, how a URL sent back as answered keeps the stored one, and how error texts
// lose a URL's credentials.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { HttpUrl, isSecretQueryParam, redactSecrets, redactUrl, storedUrl, urlSecrets } from '../../../src/shapes.js';

describe('secret query parameters', () => {
  it.each([
    'token',
    'TOKEN',
    'access_token',
    'X-Amz-Security-Token',
    'accessToken',
    'api_key',
    'apikey',
    'x-api-key',
    'subscription-key',
    'key',
    'secret',
    'client_secret',
    'password',
    'passwd',
    'pwd',
    'sig',
    'signature',
    'X-Amz-Signature',
    'auth',
    'authorization',
    'code',
    'access%5Ftoken',
  ])('%s is one', (name) => expect(isSecretQueryParam(name)).toBe(true));

  it.each(['x', 'page', 'api-version', 'keyword', 'monkey', 'signed', 'timeout', 'authors'])('%s is not', (name) =>
    expect(isSecretQueryParam(name)).toBe(false),
  );
});

describe('redactUrl', () => {
  it.each([
    ['https://h.example/hook?token=s3cr3t', 'https://h.example/hook?token=***'],
    ['https://h.example/hook?a=1&Access_Token=s3cr3t&b=2', 'https://h.example/hook?a=1&Access_Token=***&b=2'],
    ['https://h.example/x?key=k1&sig=abc%2Fdef#frag', 'https://h.example/x?key=***&sig=***#frag'],
    ['https://h.example/x#access_token=t0k3n&state=1', 'https://h.example/x#access_token=***&state=1'],
    ['https://h.example/x?token=&key', 'https://h.example/x?token=&key'],
    ['http://HOST.example:8080/a/b?x=1', 'http://HOST.example:8080/a/b?x=1'],
    // Stored before the pattern refused a userinfo: the whole of it is hidden.
    ['https://user:pa55@h.example/x?token=t', 'https://***@h.example/x?token=***'],
  ])('%s → %s', (url, answered) => {
    expect(redactUrl(url)).toBe(answered);
  });

  it('answers a URL the body schema takes again, once it has no userinfo', () => {
    const answered = redactUrl('https://h.example/hook?token=s3cr3t&api_key=k&x=1');
    expect(HttpUrl.safeParse(answered).success).toBe(true);
    expect(new URL(answered).searchParams.get('token')).toBe('***');
  });
});

describe('storedUrl', () => {
  const stored = 'https://h.example/hook?token=s3cr3t&x=1';
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return err as AppError;
    }
    throw new Error('not refused');
  };

  it('keeps the stored URL when the answered one comes back, also percent-encoded', () => {
    expect(storedUrl('url', 'https://h.example/hook?token=***&x=1', stored)).toBe(stored);
    expect(storedUrl('url', 'https://h.example/hook?token=%2A%2A%2A&x=1', stored)).toBe(stored);
  });

  it('takes a URL with its own credential as sent', () => {
    expect(storedUrl('url', 'https://h.example/hook?token=new&x=1', stored)).toBe(
      'https://h.example/hook?token=new&x=1',
    );
    expect(storedUrl('url', 'https://other.example/', stored)).toBe('https://other.example/');
    expect(storedUrl('url', 'https://h.example/hook?token=abc', null)).toBe('https://h.example/hook?token=abc');
  });

  it('refuses *** anywhere else: on a create, on another host or path, with other parameters', () => {
    for (const [sent, kept] of [
      ['https://h.example/hook?token=***&x=1', null],
      ['https://evil.example/hook?token=***&x=1', stored],
      ['https://h.example/other?token=***&x=1', stored],
      ['https://h.example/hook?token=***&x=2', stored],
    ] as const) {
      const err = refusal(() => storedUrl('settings.url', sent, kept));
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ type: 'VALIDATION_FAILED', status: 400 });
      expect(err.message).toMatch(/^settings\.url: the value of token is \*\*\*/);
      expect(err.data).toEqual({ fields: [{ path: 'settings.url', message: expect.stringContaining('***') }] });
    }
  });
});

describe('redactSecrets', () => {
  it('hides the credentials of a URL (as written and decoded) and a key in an error text', () => {
    const url = 'https://h.example/hook?token=ab%2Fcd-123&x=1';
    const text = 'answered 401: bad token ab/cd-123 (ab%2Fcd-123) for sk-key-1, x=1';
    expect(redactSecrets(text, [...urlSecrets(url), 'sk-key-1'])).toBe(
      'answered 401: bad token *** (***) for ***, x=1',
    );
    expect(urlSecrets('https://u5er:pa55word@h.example/')).toEqual(
      expect.arrayContaining(['u5er:pa55word', 'u5er', 'pa55word']),
    );
    // A value too short to be a credential is not hunted through the text.
    expect(urlSecrets('https://h.example/?key=1')).toEqual([]);
    expect(redactSecrets('nothing', [null, undefined, ''])).toBe('nothing');
  });
});
