// A small history-API router: paths like /inbox/todo, /instances/:id.
import { h } from 'preact';
import { Store, useStore } from './store';

export const location = new Store(window.location.pathname + window.location.search);
window.addEventListener('popstate', () => location.set(window.location.pathname + window.location.search));

export function navigate(to: string, replace = false) {
  if (to === location.get()) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  location.set(to);
  window.scrollTo(0, 0);
}

export function useLocation() {
  const full = useStore(location);
  const [path, search = ''] = full.split('?');
  return { path: path!, query: new URLSearchParams(search) };
}

/** Matches `pattern` (with :params) against `path`; null when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const out: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i]!.startsWith(':')) out[p[i]!.slice(1)] = decodeURIComponent(s[i]!);
    else if (p[i] !== s[i]) return null;
  }
  return out;
}

export function Link(props: { href: string; [attr: string]: unknown }) {
  return h('a', {
    ...props,
    onClick: (e: MouseEvent) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      navigate(props.href);
    },
  });
}
