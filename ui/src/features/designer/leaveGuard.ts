// Asks before the designer is left with unsaved changes: a reload or a closed tab (the browser's own
// `beforeunload` question), a link in the console (its words, before the router sees the click) and any
// other change of the console's address — Back/Forward, a button that navigates (the same question;
// staying puts the designer's address back).
import { useEffect, useRef } from 'preact/hooks';
import { location as route } from '../../lib/router';

const designerPath = (to: string) => to.startsWith('/admin/designer/');

/** True for a click the router would turn into a page change (an in-app link, no modifier, same tab). */
function leavingBy(e: MouseEvent): boolean {
  if (e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return false;
  const a = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
  if (!a || (a.target && a.target !== '_self') || a.hasAttribute('download')) return false;
  const url = new URL(a.href, window.location.href);
  return url.origin === window.location.origin && url.pathname + url.search !== route.get();
}

export function useLeaveGuard(dirty: boolean, question: string) {
  const state = useRef({ dirty, question });
  state.current = { dirty, question };
  useEffect(() => {
    let here = route.get();
    let answered = false; // a link already asked: its navigation is not asked about again
    const ask = () => !state.current.dirty || window.confirm(state.current.question);
    const onUnload = (e: BeforeUnloadEvent) => {
      if (!state.current.dirty) return;
      e.preventDefault();
      e.returnValue = ''; // older engines show the question only with a returnValue
    };
    // Capture: before the link's own handler (the router's navigate) runs, so nothing is pushed on Cancel.
    const onClick = (e: MouseEvent) => {
      if (!leavingBy(e)) return;
      if (ask()) {
        answered = true;
        return;
      }
      e.preventDefault();
      e.stopPropagation();
    };
    // Every other change of the address passes the router's store, synchronously and before the page is drawn
    // again (a popstate listener of our own would run after the router's, and after that drawing).
    const unsubscribe = route.subscribe((to) => {
      if (to === here) return;
      if (designerPath(to) || answered || ask()) {
        here = to; // the designer's own moves (a new draft's address) and agreed leaves
        answered = false;
        return;
      }
      history.pushState(null, '', here);
      route.set(here);
    });
    window.addEventListener('beforeunload', onUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      unsubscribe();
      window.removeEventListener('beforeunload', onUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, []);
}
