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
