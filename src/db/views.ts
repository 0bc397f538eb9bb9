// Rows as the API answers them: the fields a view lists, in its order; dates as ISO strings.

/** A field of `E` to copy; with a trailing `?`, an unset value is answered as null. */
export type ViewField<E> = (keyof E & string) | `${keyof E & string}?`;

type Answered<T> = T extends Date ? string : T;

export type ViewOf<E, F extends readonly ViewField<E>[]> = {
  [K in F[number] as K extends `${infer N}?` ? N : K]: K extends `${infer N extends keyof E & string}?`
    ? Answered<Exclude<E[N], undefined | null>> | null
    : K extends keyof E
      ? Answered<E[K]>
      : never;
};

export function rowView<E extends object, const F extends readonly ViewField<E>[]>(row: E, fields: F): ViewOf<E, F> {
  const view: Record<string, unknown> = {};
  for (const field of fields) {
    const orNull = field.endsWith('?');
    const name = orNull ? field.slice(0, -1) : field;
    const value = (row as Record<string, unknown>)[name];
    view[name] = value instanceof Date ? value.toISOString() : orNull ? (value ?? null) : value;
  }
  return view as ViewOf<E, F>;
}
