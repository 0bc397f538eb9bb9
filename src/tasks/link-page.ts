// The page a one-time approval link opens (docs/channels.md#the-link-page): `GET /l/{token}` shows
// the task and a confirm button — mail scanners open links, so following one never acts by itself —
// and `POST /l/{token}` (a plain HTML form, no script) approves or rejects; a rejection asks for a
// reason. Used, expired, revoked or reassigned links say so in words. The JSON API of the same links
// (/api/v1/approve-links) is unchanged; both go through src/tasks/approval-links.ts.
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppDeps } from '../context.js';
import { AppError } from '../errors.js';
import { decideLink, viewLink } from './approval-links.js';
import type { AppEnv } from '../http/context.js';
import { linkRateLimit } from './approval-links.routes.js';
import { PAGE_WORDS, type PageWords } from './link-page-words.js';
import { verifyLink } from '../infra/link-tokens.js';
import { LOCALES, type Locale } from '../locales.js';
import { chooseLocale } from '../http/locale.js';

type Action = 'approve' | 'reject';
type View = Awaited<ReturnType<typeof viewLink>>;

const escape = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;padding:24px 12px;background:#f6f8fa;color:#1f2328;font:15px/1.5 -apple-system,'Segoe UI',Helvetica,Arial,sans-serif}
  main{max-width:560px;margin:0 auto;background:#fff;border:1px solid #d0d7de;border-radius:10px;padding:24px}
  h1{font-size:20px;margin:0 0 4px}
  p.sub{margin:0 0 16px;color:#57606a}
  table{border-collapse:collapse;width:100%;margin:0 0 20px}
  th{text-align:left;font-weight:normal;color:#57606a;padding:6px 12px 6px 0;vertical-align:top;white-space:nowrap;width:1%}
  td{padding:6px 0;word-break:break-word}
  tr+tr th,tr+tr td{border-top:1px solid #eaeef2}
  form{margin:0 0 12px}
  label{display:block;margin:0 0 6px;font-weight:600}
  textarea{width:100%;min-height:80px;padding:8px;border:1px solid #d0d7de;border-radius:6px;font:inherit}
  button{margin-top:10px;padding:10px 22px;border:0;border-radius:6px;color:#fff;font-family:inherit;font-size:15px;font-weight:600;cursor:pointer}
  .approve{background:#1a7f37}.reject{background:#cf222e}
  .note{padding:12px 14px;border-radius:6px;margin:0 0 16px}
  .error{background:#ffebe9;border:1px solid #ff8182}.done{background:#dafbe1;border:1px solid #4ac26b}
  .muted{color:#57606a;font-size:13px}`;

function page(w: PageWords, title: string, body: string): string {
  return `<!doctype html>
<html lang="${w.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>
`;
}

const message = (w: PageWords, [title, text]: [string, string], kind: 'error' | 'done') =>
  page(w, title, `<h1>${escape(title)}</h1><div class="note ${kind}">${escape(text)}</div>`);

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function facts(w: PageWords, view: View): string {
  const rows: Array<[string, unknown]> = [
    [w.facts.process, view.instance.processName],
    [w.facts.businessKey, view.instance.businessKey],
    [w.facts.initiator, view.instance.initiatorId],
    [w.facts.task, view.task.name],
    [w.facts.created, utc(view.task.createTime)],
    [w.facts.due, view.task.dueDate ? utc(view.task.dueDate) : null],
    ...Object.entries(view.variables).map(([k, v]): [string, unknown] => [
      k,
      v !== null && typeof v === 'object' ? JSON.stringify(v) : v,
    ]),
  ];
  return `<table>${rows
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `<tr><th>${escape(k)}</th><td>${escape(v)}</td></tr>`)
    .join('')}</table>`;
}

function form(w: PageWords, action: Action, error?: string, comment = ''): string {
  const reject = action === 'reject';
  return `<form method="post">
<input type="hidden" name="action" value="${action}">
${error ? `<div class="note error">${escape(error)}</div>` : ''}
<label for="comment-${action}">${reject ? w.reasonRequired : w.commentOptional}</label>
<textarea id="comment-${action}" name="comment" maxlength="2000"${reject ? ' required' : ''}>${escape(comment)}</textarea>
<button class="${action}" type="submit">${reject ? w.reject : w.approve}</button>
</form>`;
}

export function taskPage(
  w: PageWords,
  view: View,
  only: Action | null,
  error?: { action: Action; text: string; comment: string },
) {
  const actions = view.actions.filter((a) => !only || a === only) as Action[];
  const forms = actions
    .map((a) => form(w, a, error?.action === a ? error.text : undefined, error?.action === a ? error.comment : ''))
    .join('');
  return page(
    w,
    `${view.task.name} — ${view.instance.processName}`,
    `<h1>${escape(view.task.name)}</h1>
<p class="sub">${escape(view.instance.processName)}${view.instance.businessKey ? ` · ${escape(view.instance.businessKey)}` : ''}</p>
${facts(w, view)}
${forms || `<div class="note error">${escape(w.notAllowed)}</div>`}
<p class="muted">${escape(w.footer(utc(view.expiresAt)))}</p>`,
  );
}

/** An AppError as a page with its status; anything else is logged and answered 503 in words. */
function failure(c: Context<AppEnv>, deps: AppDeps, w: PageWords, err: unknown) {
  if (err instanceof AppError) {
    if (err.type === 'LINK_GONE') {
      const reason = String((err.data as { reason?: string } | null)?.reason ?? 'used');
      return c.html(message(w, w.gone[reason] ?? w.gone.used, 'error'), 410);
    }
    if (err.type === 'LINK_INVALID') return c.html(message(w, w.invalid, 'error'), 401);
    return c.html(message(w, [w.cannot, err.message], 'error'), err.status as 400);
  }
  deps.logger.error({ err: (err as Error)?.message, requestId: c.get('requestId') }, 'link page failed');
  return c.html(message(w, w.failed, 'error'), 503);
}

/**
 * The page's language, chosen like every answer's (src/http/locale.ts): the link's user's locale,
 * else the browser's (Accept-Language), else the tenant's default, else English. A token that does
 * not verify gets the browser's.
 */
async function wordsFor(c: Context<AppEnv>, deps: AppDeps): Promise<PageWords> {
  let user: { locale: string | null; tenant_locale: string | null } | undefined;
  try {
    const claims = await verifyLink(deps.config, c.req.param('token') ?? '');
    [user] = await deps.orm.em.fork().execute<Array<{ locale: string | null; tenant_locale: string | null }>>(
      `select u.locale, t.default_locale as tenant_locale from users u left join tenants t on t.id = u.tenant_id
        where u.tenant_id = ? and u.id = ?`,
      [claims.tenantId, claims.userId],
    );
  } catch {
    /* the page says what is wrong with the link */
  }
  const locale = chooseLocale({
    user: user?.locale,
    acceptLanguage: c.req.header('Accept-Language'),
    tenant: user?.tenant_locale,
  });
  return PAGE_WORDS[(LOCALES as readonly unknown[]).includes(locale) ? (locale as Locale) : 'en'];
}

const parseAction = (v: unknown): Action | null => (v === 'approve' || v === 'reject' ? v : null);

/** Characters, as the form's maxlength counts them. */
const MAX_COMMENT = 2000;
/** What String.prototype.trim removes: a reason must hold something else. */
const NOT_BLANK = '[^\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

/** Mounted at /l. */
export function linkPageRoutes(deps: AppDeps) {
  const r = new OpenAPIHono<AppEnv>();
  r.use('*', async (c, next) => {
    await next();
    // The token is in the URL: no cache, no referrer, no framing, no scripts.
    c.res.headers.set('Cache-Control', 'no-store');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
    c.res.headers.set('X-Robots-Tag', 'noindex');
    c.res.headers.set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });
  r.use(
    '/:token',
    bodyLimit({
      // 2,000 characters of 4-byte UTF-8, percent-encoded (12 bytes each), and the action.
      maxSize: 32 * 1024,
      onError: (c) => c.html(message(PAGE_WORDS.en, PAGE_WORDS.en.tooLong, 'error'), 413),
    }),
  );
  r.use(
    '/:token',
    linkRateLimit(deps, (c) => c.html(message(PAGE_WORDS.en, PAGE_WORDS.en.tooMany, 'error'), 429)),
  );
  r.get('/:token', async (c) => {
    const w = await wordsFor(c, deps);
    const asked = c.req.query('action');
    // The document's enum: another value is refused, not read as "show both".
    if (asked !== undefined && !parseAction(asked)) return c.html(message(w, w.choose, 'error'), 400);
    try {
      const view = await viewLink(deps, c.req.param('token'));
      return c.html(taskPage(w, view, parseAction(asked)));
    } catch (err) {
      return failure(c, deps, w, err);
    }
  });
  r.post('/:token', async (c) => {
    const token = c.req.param('token');
    const w = await wordsFor(c, deps);
    try {
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const action = parseAction(form.action);
      const raw = typeof form.comment === 'string' ? form.comment : '';
      if (!action) return c.html(message(w, w.choose, 'error'), 400);
      // Refused, not cut: the form says maxlength, and what is stored is what was sent.
      // No U+0000 (PostgreSQL cannot store it); a lone surrogate cannot arrive through UTF-8.
      if ([...raw].length > MAX_COMMENT || raw.includes('\u0000')) return c.html(message(w, w.tooLong, 'error'), 400);
      const comment = raw.trim();
      if (action === 'reject' && !comment) {
        const view = await viewLink(deps, token);
        return c.html(taskPage(w, view, 'reject', { action, text: w.giveReason, comment }), 400);
      }
      const result = await decideLink(deps, token, { action, ...(comment ? { comment } : {}) });
      const process = `${result.task.processName}${result.task.businessKey ? ` ${result.task.businessKey}` : ''}`;
      return c.html(message(w, w.done(action === 'approve', result.task.name, process), 'done'));
    } catch (err) {
      return failure(c, deps, w, err);
    }
  });
  // Documented in /openapi.json beside the JSON API of the same links.
  const TokenParam = z.object({ token: z.string().openapi({ param: { name: 'token', in: 'path' } }) });
  const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
  // Every refusal is a page too.
  const refusals = {
    401: html('Not a valid link'),
    403: html('The link does not allow this, or its user may not decide tasks'),
    409: html('The task cannot be decided now (suspended, …)'),
    410: html('Used, expired, revoked, closed or reassigned, said in words'),
    413: html('Too much text'),
    429: html('Too many failed attempts'),
    503: html('Something failed: nothing was decided'),
  };
  r.openAPIRegistry.registerPath({
    method: 'get',
    path: '/{token}',
    tags: ['approval links'],
    summary: 'The link’s page: the task and a confirm button (HTML; following a link never decides)',
    request: {
      params: TokenParam,
      query: z.object({
        action: z
          .enum(['approve', 'reject'])
          .optional()
          .openapi({ param: { name: 'action', in: 'query' } }),
      }),
    },
    responses: {
      200: html('The task and the form'),
      400: html('An `action` other than approve or reject'),
      ...refusals,
    },
  });
  r.openAPIRegistry.registerPath({
    method: 'post',
    path: '/{token}',
    tags: ['approval links'],
    summary: 'Decide through the link’s page (an HTML form post; a rejection needs a reason)',
    request: {
      params: TokenParam,
      body: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: z.union([
              z.object({ action: z.literal('approve'), comment: z.string().max(MAX_COMMENT).optional() }),
              z.object({
                action: z.literal('reject'),
                comment: z
                  .string()
                  .max(MAX_COMMENT)
                  .regex(new RegExp(`^[^\\u0000]*${NOT_BLANK}[^\\u0000]*$`))
                  .openapi({ description: 'The reason: required, not only white space' }),
              }),
            ]),
          },
        },
      },
    },
    responses: { 200: html('Decided'), 400: html('No decision, or a rejection without a reason'), ...refusals },
  });
  return r;
}
