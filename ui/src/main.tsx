import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './i18n';
import { LanguageSwitch } from './components/LanguageSwitch';
import { refreshAccess } from './lib/access';
import { badge } from './lib/badge';
import { connected, startLive } from './lib/live';
import { Link, match, navigate, useLocation } from './lib/router';
import { session } from './lib/session';
import { firstContent, useStore } from './lib/store';
import { Login } from './pages/Login';
import { StartList, StartForm } from './pages/Start';
import { Inbox } from './pages/Inbox';
import { InstancePage } from './features/instance/InstancePage';
import { Definitions, DefinitionView } from './pages/Definitions';
import { Monitoring } from './pages/Monitoring';
import { Directory } from './features/directory/Directory';
import { NotificationMenu } from './features/notifications/NotificationMenu';
import { lazyPage } from './lib/lazy';
import './styles/base.css';
import './styles/pages.css';

// The designer is its own chunk: the inbox's first load does not carry it.
const Designer = lazyPage(
  () => import('./features/designer/Designer').then((m) => m.DesignerPage),
  window.location.pathname.startsWith('/admin/designer/'), // opened directly: fetch it at once
);

// "My settings" is visited now and then: its own chunk too.
const Settings = lazyPage(
  () => import('./features/settings/SettingsPage').then((m) => m.SettingsPage),
  window.location.pathname === '/settings',
);

// Rule chains (list, graph editor, runs): its own chunk too.
const RuleChains = lazyPage(
  () => import('./features/rule-chains/RuleChainsPage').then((m) => m.RuleChainsPage),
  window.location.pathname.startsWith('/admin/rule-chains'),
);

// The admins' notification set-up (channels, templates, delivery log): its own chunk as well.
const NotificationAdmin = lazyPage(
  () => import('./features/notification-admin/NotificationAdminPage').then((m) => m.NotificationAdminPage),
  window.location.pathname.startsWith('/admin/notifications'),
);

/**
 * The console's Rule chains page is an admin page, for those who may write definitions; the API also lets
 * readers of definitions read chains (docs/rule-chains.md "Permissions"), but every employee reads
 * definitions (to start processes), and an admin page in their menu would only confuse.
 */
const chainsRead = (s: { can: { definitionsWrite: boolean } }) => s.can.definitionsWrite;

function Forbidden() {
  return (
    <p class="card error" role="alert">
      {t.admin.forbidden}
    </p>
  );
}

function Routes() {
  const { path } = useLocation();
  const s = session.get()!;
  let m: Record<string, string> | null;
  if (path === '/' || path === '/inbox') {
    navigate('/inbox/todo', true);
    return null;
  }
  if (path === '/start') return <StartList />;
  if (path === '/settings') return <Settings />;
  if ((m = match('/start/:key', path))) return <StartForm processKey={m.key!} />;
  if ((m = match('/inbox/:tab', path))) return <Inbox tab={m.tab!} />;
  if ((m = match('/instances/:id', path))) return <InstancePage id={m.id!} />;
  if (path === '/admin/definitions') return s.can.definitionsWrite ? <Definitions /> : <Forbidden />;
  if ((m = match('/admin/definitions/:id', path)))
    return s.can.definitionsWrite ? <DefinitionView id={m.id!} /> : <Forbidden />;
  if ((m = match('/admin/designer/:id', path)))
    return s.can.definitionsWrite ? <Designer id={m.id === 'new' ? null : m.id!} /> : <Forbidden />;
  if (path === '/admin/rule-chains') return chainsRead(s) ? <RuleChains id={null} /> : <Forbidden />;
  if ((m = match('/admin/rule-chains/:id', path))) return chainsRead(s) ? <RuleChains id={m.id!} /> : <Forbidden />;
  if (path === '/admin/monitoring') return s.can.monitor ? <Monitoring /> : <Forbidden />;
  if (path === '/admin/directory') return s.can.directory ? <Directory /> : <Forbidden />;
  if (path === '/admin/notifications') {
    navigate('/admin/notifications/channels', true);
    return null;
  }
  if ((m = match('/admin/notifications/:tab', path)))
    return s.can.admin ? <NotificationAdmin tab={m.tab!} /> : <Forbidden />;
  return (
    <p class="card">
      {t.notFound} <Link href="/inbox/todo">{t.nav.inbox}</Link>
    </p>
  );
}

function NavLink({ href, children, prefix }: { href: string; prefix?: string; children: any }) {
  const { path } = useLocation();
  const current = path.startsWith(prefix ?? href);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined} class={current ? 'current' : undefined}>
      {children}
    </Link>
  );
}

function App() {
  const s = useStore(session);
  const count = useStore(badge);
  const live = useStore(connected);
  const { path } = useLocation();
  // The phone's menu (the header's links and actions behind one button) closes when the page changes.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(
    () =>
      void firstContent.then(() => {
        startLive();
        void refreshAccess();
      }),
    [],
  );
  if (!s) return <Login />;
  return (
    <>
      <a class="skip" href="#main">
        {t.skip}
      </a>
      <header class={menuOpen ? 'top open' : 'top'}>
        <strong class="brand">{t.app}</strong>
        <span class="whoami">
          <span
            class={live ? 'dot on' : 'dot'}
            title={live ? t.common.live : t.common.offline}
            aria-label={live ? t.common.live : t.common.offline}
            role="img"
          />
          <span data-testid="whoami">
            {s.username}@{s.tenantId}
          </span>
        </span>
        {/* Shown on a narrow screen only (styles/base.css): the links and actions below fold behind it. */}
        <button
          type="button"
          class="menu-button"
          aria-expanded={menuOpen}
          aria-controls="top-menu"
          data-testid="menu-button"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">☰</span> {t.nav.menu}
          {count ? (
            <span class="badge" aria-hidden="true">
              {count}
            </span>
          ) : null}
        </button>
        <div class="menu" id="top-menu">
          <nav aria-label={t.nav.main}>
            <NavLink href="/inbox/todo" prefix="/inbox">
              {t.nav.inbox}
              {count ? (
                <span class="badge" data-testid="todo-badge" aria-label={t.inbox.badge(count)}>
                  {count}
                </span>
              ) : null}
            </NavLink>
            <NavLink href="/start">{t.nav.start}</NavLink>
            {s.can.definitionsWrite && <NavLink href="/admin/definitions">{t.nav.definitions}</NavLink>}
            {chainsRead(s) && <NavLink href="/admin/rule-chains">{t.nav.ruleChains}</NavLink>}
            {s.can.monitor && <NavLink href="/admin/monitoring">{t.nav.monitoring}</NavLink>}
            {s.can.directory && <NavLink href="/admin/directory">{t.nav.directory}</NavLink>}
            {s.can.admin && (
              <NavLink href="/admin/notifications/channels" prefix="/admin/notifications">
                {t.nav.notificationsAdmin}
              </NavLink>
            )}
          </nav>
          <span class="who">
            <NotificationMenu />
            <NavLink href="/settings">{t.nav.settings}</NavLink>
            <LanguageSwitch />
            <button type="button" data-testid="logout" onClick={() => session.close()}>
              {t.nav.logout}
            </button>
          </span>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Routes />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
