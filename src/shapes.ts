// Shapes every part of the API shares, declared once as zod schemas: timestamps, e-mail addresses,
// chat ids, http(s) URLs and how credentials in them are kept write-only. The read model's
// resources (tasks, instances, the trail) and their list queries are src/read-model/shapes.ts.
import { z } from '@hono/zod-openapi';
import { AppError } from './errors.js';

export const IsoDate = z.string().openapi({ format: 'date-time' });

/**
 * An e-mail address as the server checks it: ASCII, `local@domain.tld`. Stated as a plain pattern
 * (not `format: email`) so generated clients and the fuzzer check exactly what the server does.
 */
export const EMAIL_PATTERN = "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+$";
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
/**
 * An http(s) URL as the server takes it (webhooks, chat channels, AI agents): scheme, a host name
 * or an IPv4 address, an optional port 0–65535, then any printable ASCII. Stated as the whole rule
 * (not `format: uri`, which admits `HTTP:` with no host), so the document, generated clients and
 * the fuzzer check exactly what the server does. Every string it matches is a URL the WHATWG parser
 * reads, and reads without a user name or password: a host name's last label starts with a letter,
 * since one ending in a number would be read as an IPv4 address. Not accepted: `user:password@`
 * (a credential in a URL is answered to everyone who reads it: docs/http.md "Credentials in URLs"),
 * IPv6 literals (use a host name) and characters outside printable ASCII (percent-encode them).
 */
export const HTTP_URL_PATTERN =
  '^[hH][tT][tT][pP][sS]?://' +
  `(?:${OCTET}(?:\\.${OCTET}){3}|(?:[A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*)` +
  '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?' +
  '(?:[/?#][\\x21-\\x7e]*)?$';
const httpUrlPattern = new RegExp(HTTP_URL_PATTERN);
/** `scheme://<userinfo>@`: what the WHATWG parser reads as a user name and password (the authority ends at / \ ? #). */
const USERINFO = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#\\]*)@/;

/**
 * An http(s) URL field (HTTP_URL_PATTERN). `credentials` says where a credential goes instead of
 * the URL's `user:password@`: a URL that has one is refused with these words.
 */
export function httpUrl(credentials = 'send credentials in the field meant for them, never in the URL') {
  return (
    z
      .string()
      .max(2000)
      // A URL issue rather than a pattern one: zod's Chinese words then say 无效URL, not the pattern.
      .superRefine((value, ctx) => {
        if (!httpUrlPattern.test(value))
          ctx.addIssue({
            code: 'invalid_format',
            format: 'url',
            input: value,
            message: USERINFO.test(value)
              ? `must not carry a user name or password (user:password@): ${credentials}`
              : 'must be an http or https URL with a host name or an IPv4 address',
          });
      })
      .openapi({ pattern: HTTP_URL_PATTERN })
  );
}
export const HttpUrl = httpUrl();

// ---------- credentials in URLs (docs/http.md "Credentials in URLs") ----------

/** What a read answers in place of a credential in a URL; sent back unchanged, it keeps the stored value. */
export const REDACTED = '***';
/** Query parameters whose value is a credential, by name (compared case-insensitively, percent-decoded). */
export const SECRET_QUERY_PARAMS = ['key', 'sig', 'code', 'auth', 'authorization', 'pwd', 'credential'] as const;
/** …and by how the name ends: `access_token`, `X-Amz-Security-Token`, `client_secret`, `x-api-key`, `X-Amz-Signature`. */
export const SECRET_QUERY_SUFFIXES = [
  'token',
  'secret',
  'password',
  'passwd',
  'signature',
  'apikey',
  '_key',
  '-key',
  '.key',
  '_sig',
  '-sig',
] as const;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Whether a query parameter of this name carries a credential (SECRET_QUERY_PARAMS, SECRET_QUERY_SUFFIXES). */
export function isSecretQueryParam(name: string): boolean {
  const n = decoded(name).toLowerCase();
  return (SECRET_QUERY_PARAMS as readonly string[]).includes(n) || SECRET_QUERY_SUFFIXES.some((s) => n.endsWith(s));
}

/** A credential's place in a URL string: the userinfo, or a secret parameter's value (never empty). */
interface SecretSpan {
  name: string | null;
  start: number;
  end: number;
}

/** Where the URL's credentials are: its userinfo, the values of secret parameters in its query and fragment. */
function secretSpans(url: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  const userinfo = USERINFO.exec(url);
  if (userinfo?.[1]) {
    const start = userinfo[0].length - 1 - userinfo[1].length;
    spans.push({ name: null, start, end: start + userinfo[1].length });
  }
  const hash = url.indexOf('#');
  const query = url.indexOf('?');
  const sections: Array<[number, number]> = [];
  if (query >= 0 && (hash < 0 || query < hash)) sections.push([query + 1, hash < 0 ? url.length : hash]);
  if (hash >= 0) sections.push([hash + 1, url.length]);
  for (const [from, to] of sections) {
    let at = from;
    for (const pair of url.slice(from, to).split('&')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && eq < pair.length - 1 && isSecretQueryParam(pair.slice(0, eq)))
        spans.push({ name: decoded(pair.slice(0, eq)), start: at + eq + 1, end: at + pair.length });
      at += pair.length + 1;
    }
  }
  return spans;
}

/** `url` with each span replaced by `by(span's text)`. */
function replaced(url: string, spans: SecretSpan[], by: (text: string) => string): string {
  let out = url;
  for (const s of [...spans].sort((a, b) => b.start - a.start))
    out = out.slice(0, s.start) + by(out.slice(s.start, s.end)) + out.slice(s.end);
  return out;
}

/**
 * The URL as a read answers it: its userinfo and the values of its secret query (and fragment)
 * parameters replaced by `***` (`https://h/hook?token=***&x=1`), the rest as stored, character for
 * character. Still a URL that HttpUrl takes, unless it had a userinfo (refused since).
 */
export function redactUrl(url: string): string {
  return replaced(url, secretSpans(url), () => REDACTED);
}

/** The URL's credentials (as written and percent-decoded), for redactSecrets; values under 4 characters are left. */
export function urlSecrets(url: string | null | undefined): string[] {
  if (!url) return [];
  const values = secretSpans(url).flatMap((s) => {
    const raw = url.slice(s.start, s.end);
    return [raw, decoded(raw), ...(s.name === null ? raw.split(':').map(decoded) : [])];
  });
  return [...new Set(values)].filter((v) => v.length >= 4 && v !== REDACTED);
}

/**
 * `text` with each secret replaced by `***`, longest first: an error text may come from the remote
 * server (an echo of the request), and never carries a credential into a log line, the trail or
 * workflow history.
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | null | undefined>): string {
  let out = text;
  for (const s of [...new Set(secrets)].filter(Boolean).sort((a, b) => b!.length - a!.length))
    out = out.split(s!).join(REDACTED);
  return out;
}

/**
 * The URL to store when `sent` replaces `stored` (null on a create): `stored` itself when `sent` is
 * what a read answered for it (its credentials as `***`), so a client that reads, edits another field
 * and writes back keeps the credential; otherwise `sent`. A `***` value in any other URL stands for
 * nothing the server has: 400 VALIDATION_FAILED naming `field`.
 */
export function storedUrl(field: string, sent: string, stored: string | null | undefined): string {
  const spans = secretSpans(sent).filter((s) => s.name !== null);
  const markers = spans.filter((s) => decoded(sent.slice(s.start, s.end)) === REDACTED);
  if (!markers.length) return sent;
  if (stored && replaced(sent, markers, () => REDACTED) === redactUrl(stored)) return stored;
  const names = [...new Set(markers.map((s) => s.name))].join(', ');
  const message =
    `the value of ${names} is ${REDACTED}, which stands for the stored credential: ` +
    `send the URL exactly as it was answered to keep it, or send the credential itself`;
  throw new AppError('VALIDATION_FAILED', `${field}: ${message}`, { fields: [{ path: field, message }] });
}

/** A user's id on a chat platform (a channel address, docs/channels.md). */
export const CHAT_ID_PATTERN = '^[A-Za-z0-9_.@+:=-]{1,200}$';
export const EmailAddress = z
  .string()
  .max(320)
  .regex(new RegExp(EMAIL_PATTERN), 'an e-mail address (ASCII: local@domain.tld)');

/** A timestamp query parameter: ISO-8601 with offset, parsed once, handed on as a UTC ISO string. */
export const TimestampQuery = z
  .string()
  .datetime({ offset: true })
  .transform((s, ctx) => {
    const d = new Date(s);
    const year = d.getUTCFullYear();
    // PostgreSQL refuses offsets beyond ±15:59, which Date normalises; years are kept to 0001–9999.
    if (Number.isNaN(d.getTime()) || year < 1 || year > 9999) {
      ctx.addIssue({ code: 'custom', message: 'not a timestamp between 0001 and 9999 (UTC)' });
      return z.NEVER;
    }
    return d.toISOString();
  })
  .openapi({ type: 'string', format: 'date-time', description: 'ISO-8601 with offset; years 0001–9999 in UTC' });
