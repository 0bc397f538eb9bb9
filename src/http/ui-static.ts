// Serves the web console (ui/, built by Vite into ui/dist) at `/`: hashed assets with a long
// cache (gzip-precompressed copies when the browser takes them), every other GET that is not an
// API, docs or health path answered with index.html so the console's own router takes over.
// API paths never reach the fallback: an unknown /api path keeps its 404 envelope. Everything served
// here carries the console's Content-Security-Policy (CONSOLE_CSP; docs/console.md
// "Content-Security-Policy").
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { MiddlewareHandler } from 'hono';

/**
 * The console's policy: its scripts, styles, images, API calls and WebSocket come from its own
 * origin only; no inline or injected script, no eval, no plugins, no framing by anyone.
 * `'unsafe-inline'` for styles is for the template preview: an `<iframe srcdoc>` document inherits
 * this policy, and e-mail HTML is styled inline (`style="…"`, `<style>`). The console itself needs
 * it for nothing (Preact's `style` prop goes through CSSOM, which CSP does not govern). Why each
 * directive is what it is: docs/console.md "Content-Security-Policy".
 */
export const CONSOLE_CSP = contentSecurityPolicy("'self' 'unsafe-inline'");

/** The policy of the console and of /docs: everything from this origin, and `styles` as given. */
export function contentSecurityPolicy(styles: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styles}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    // The instance page previews a PDF attachment in a frame of its own signed URL (docs/attachments.md).
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const reserved = /^\/(api|docs|openapi\.json|healthz|readyz)(\/|$)/;

/** ui/dist from the repository (tsx) or from the compiled dist/ tree. */
export function uiDistDir(): string | null {
  const here = import.meta.dirname;
  const candidates = [
    process.env.UI_DIST_DIR,
    path.resolve(here, '../../ui/dist'),
    path.resolve(here, '../../../ui/dist'),
    path.resolve(process.cwd(), 'ui/dist'),
  ].filter((p): p is string => !!p);
  return candidates.find((p) => existsSync(path.join(p, 'index.html'))) ?? null;
}

export interface UiOptions {
  /** The Temporal Web UI, for the "open in Temporal" links (null: the console guesses host:8233). */
  temporalUiUrl?: string | null;
  namespace?: string;
  /** RULE_ENGINE_PREFIX: where the console's rule-chain page finds the bridged API. */
  ruleEnginePrefix?: string;
}

export function uiStatic(opts: UiOptions = {}): MiddlewareHandler {
  let dist: string | null | undefined;
  let page: { mtime: number; html: string } | null = null;
  const meta =
    `<meta name="app-temporal-ui" content="${escapeAttr(opts.temporalUiUrl ?? '')}">` +
    `<meta name="app-temporal-namespace" content="${escapeAttr(opts.namespace ?? 'default')}">` +
    `<meta name="app-rule-engine-prefix" content="${escapeAttr(opts.ruleEnginePrefix ?? '/rulego')}">`;
  let assets: MiddlewareHandler | null = null;

  const indexHtml = (dir: string) => {
    const file = path.join(dir, 'index.html');
    const mtime = statSync(file).mtimeMs;
    if (!page || page.mtime !== mtime) {
      const html = readFileSync(file, 'utf8');
      const charset = /<meta charset="[^"]*">/i.exec(html);
      page = {
        mtime,
        html: charset ? html.replace(charset[0], `${charset[0]}${meta}`) : html.replace('<head>', `<head>${meta}`),
      };
    }
    return page.html;
  };

  // The rule engine's API is the server's too: an unknown path under it is a 404 of the API, not the console.
  const ruleEngineApi = `${opts.ruleEnginePrefix ?? '/rulego'}/api`;
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const p = c.req.path;
    if (reserved.test(p) || p === ruleEngineApi || p.startsWith(`${ruleEngineApi}/`)) return next();
    if (!dist) {
      dist = uiDistDir();
      if (dist) {
        assets = serveStatic({ root: dist, precompressed: true });
      }
    }
    if (!dist || !assets) {
      if (p !== '/') return next();
      c.header('Content-Security-Policy', CONSOLE_CSP);
      return c.html(
        '<!doctype html><title>Approval service</title><p>The web console is not built: run <code>npm run build</code> (or <code>npm start</code>).</p>',
        503,
      );
    }
    const last = p.slice(p.lastIndexOf('/') + 1);
    if (last.includes('.')) {
      const res = await assets(c, next);
      // Vite's hashed file names never change content: cache them for good; anything else revalidates.
      if (res && res.status < 300) {
        res.headers.set('Cache-Control', p.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        // Not run as documents, but a file opened directly (an .svg, an .html) is one: same policy.
        res.headers.set('Content-Security-Policy', CONSOLE_CSP);
      }
      return res;
    }
    c.header('Cache-Control', 'no-cache');
    c.header('Content-Security-Policy', CONSOLE_CSP);
    return c.html(indexHtml(dist));
  };
}

function escapeAttr(s: string) {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
