// A page loaded on demand (its own chunk): a dynamic import() the first time it is shown.
import { h, type FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n';

export function lazyPage<P extends object>(
  load: () => Promise<FunctionComponent<P>>,
  now = false,
): FunctionComponent<P> {
  let loaded: FunctionComponent<P> | null = null;
  let pending: Promise<FunctionComponent<P>> | null = now ? load() : null;
  return (props: P) => {
    const [, setReady] = useState(0);
    useEffect(() => {
      if (loaded) return;
      pending ??= load();
      void pending.then((c) => {
        loaded = c;
        setReady(1);
      });
    }, []);
    return loaded ? h(loaded, props) : h('p', { class: 'muted' }, t.common.loading);
  };
}
