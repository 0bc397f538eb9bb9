import { useEffect, useState } from 'preact/hooks';

/** A value with subscribers; `useStore` re-renders a component when it changes. */
export class Store<T> {
  private listeners = new Set<(v: T) => void>();
  constructor(private value: T) {}
  get() {
    return this.value;
  }
  set(v: T) {
    this.value = v;
    for (const l of this.listeners) l(v);
  }
  subscribe(l: (v: T) => void) {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  }
}

export function useStore<T>(store: Store<T>): T {
  const [v, setV] = useState(store.get());
  useEffect(() => {
    setV(store.get());
    return store.subscribe(setV);
  }, [store]);
  return v;
}

/** Resolved once the first page has its content (or after a short delay): background work
 * (the notification socket, the badge count) starts then, off the first load's critical path. */
let markReady: () => void = () => {};
export const firstContent = new Promise<void>((resolve) => {
  markReady = resolve;
  setTimeout(resolve, 1500);
});
export function contentShown() {
  markReady();
}
