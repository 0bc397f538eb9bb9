// The one picker for everything that names people or groups (approvers, copy-to, transfer,
// add-sign, Try it's initiator): a combobox that asks the server as you type (it ranks and
// pages; nothing is filtered here), the chosen shown as removable chips, recent choices when
// the box is empty. Without the right to read the directory it takes typed ids, suggesting the
// `known` ones; the API checks them.
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../lib/api';
import { session } from '../lib/session';
import { forbidden, nameOf, recent, remember, search, type PeopleKind, type Person } from './people';
import { words } from './PeoplePicker.words';
import s from './PeoplePicker.module.css';

const DEBOUNCE_MS = 200;

/** What a chip adds to a name: the username or key, when it says something the name does not. */
const chipDetail = (p: Person) => {
  const first = p.detail.split(' · ')[0] ?? '';
  return first && first !== p.name ? first : '';
};

type Results =
  | { state: 'idle' }
  | { state: 'loading'; items: Person[] }
  | { state: 'done'; items: Person[]; total: number; page: number; q: string }
  | { state: 'typed' }
  | { state: 'error'; error: unknown };

export function PeoplePicker({
  id,
  label,
  kind,
  multiple = false,
  value,
  onChange,
  exclude = [],
  known = [],
}: {
  /** The text box's id; the picker's root carries it as `data-picker`. */
  id: string;
  label: string;
  kind: PeopleKind;
  multiple?: boolean;
  value: string[];
  onChange: (ids: string[]) => void;
  /** Ids never offered (the caller themselves, for a transfer). */
  exclude?: string[];
  /** Ids to suggest when the directory cannot be read. */
  known?: string[];
}) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Reading the directory takes its permission (the API's `can`); a 403 on the way says the same.
  const [results, setResults] = useState<Results>(
    session.get()?.can.directory === false ? { state: 'typed' } : { state: 'idle' },
  );
  const [labels, setLabels] = useState<Record<string, Person | null>>({});
  const [said, setSaid] = useState('');
  const seq = useRef(0);
  const listRef = useRef<HTMLUListElement>(null);
  const typedMode = results.state === 'typed';

  // The names of chosen ids (saved definitions name ids; a chip shows who they are).
  useEffect(() => {
    for (const v of value)
      if (!(v in labels))
        // Typing ids, the directory is not readable: an id is its own name (no refused requests).
        void (typedMode ? Promise.resolve({ id: v, name: v, detail: '' }) : nameOf(kind, v)).then((p) =>
          setLabels((l) => ({ ...l, [v]: p })),
        );
  }, [value.join('\n'), kind, typedMode]);

  // Ask the server once typing pauses; a later answer replaces an earlier question's.
  useEffect(() => {
    if (!open || typedMode) return;
    const mine = ++seq.current;
    setResults((r) => ({ state: 'loading', items: r.state === 'done' || r.state === 'loading' ? r.items : [] }));
    const timer = setTimeout(() => {
      search(kind, text, 1).then(
        (found) => mine === seq.current && setResults({ state: 'done', ...found, q: text }),
        (error) =>
          mine === seq.current && setResults(forbidden(error) ? { state: 'typed' } : { state: 'error', error }),
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, open, kind, typedMode]);

  const more = async () => {
    if (results.state !== 'done') return;
    const mine = ++seq.current;
    const next = await search(kind, results.q, results.page + 1).catch(() => null);
    if (next && mine === seq.current)
      setResults({ ...results, items: [...results.items, ...next.items], page: next.page, total: next.total });
  };

  // What the list offers: recent choices (empty box), then the server's results — or, typing ids,
  // the known ids that match and the typed text itself.
  const shown = (p: Person) => !exclude.includes(p.id);
  const recents = text.trim() || typedMode ? [] : recent(kind).filter(shown);
  const recentIds = new Set(recents.map((p) => p.id));
  const found =
    results.state === 'done' || results.state === 'loading'
      ? results.items.filter((p) => shown(p) && !recentIds.has(p.id))
      : typedMode
        ? [
            ...known
              .filter((k) => !exclude.includes(k) && k.toLowerCase().includes(text.trim().toLowerCase()))
              .map((k) => ({ id: k, name: k, detail: '' })),
            ...(text.trim() && !known.includes(text.trim())
              ? [{ id: text.trim(), name: words.typed(text.trim()), detail: '' }]
              : []),
          ]
        : [];
  const options = [...recents, ...found];
  const hasMore = results.state === 'done' && results.items.length < results.total;
  const count = options.length + (hasMore ? 1 : 0);

  const pick = (p: Person) => {
    const chosen = value.includes(p.id);
    const person = typedMode ? { ...p, name: p.id } : p;
    setLabels((l) => ({ ...l, [p.id]: person }));
    if (!chosen && !typedMode) remember(kind, person);
    setSaid(chosen && multiple ? words.removed(person.name) : words.picked(person.name));
    if (multiple) {
      onChange(chosen ? value.filter((v) => v !== p.id) : [...value, p.id]);
      if (typedMode) setText('');
    } else {
      onChange([p.id]);
      setText('');
      setOpen(false);
    }
  };
  const unpick = (v: string) => {
    onChange(value.filter((x) => x !== v));
    setSaid(words.removed(labels[v]?.name ?? v));
  };
  // Typed ids: the text, split at commas, is taken as it is.
  const takeTyped = () => {
    const ids = text
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x && !value.includes(x));
    if (!ids.length) return;
    onChange(multiple ? [...value, ...ids] : [ids[0]!]);
    setText('');
  };

  const move = (to: number) => {
    if (!count) return;
    const next = (to + count) % count;
    setActive(next);
    listRef.current?.querySelector(`[data-index="${next}"]`)?.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) setOpen(true);
      move(active + (e.key === 'ArrowDown' ? 1 : -1));
    } else if (e.key === 'Enter') {
      if (!open) return;
      e.preventDefault(); // never submits the form the picker sits in
      if (active >= 0 && active < options.length) pick(options[active]!);
      else if (active === options.length && hasMore) void more();
      else if (typedMode) takeTyped();
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
      } else if (text) setText('');
    } else if (e.key === 'Backspace' && !text && value.length && multiple) {
      unpick(value[value.length - 1]!);
    }
  };

  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  const option = (p: Person, i: number) => {
    const chosen = value.includes(p.id);
    return (
      <li
        key={`${i}-${p.id}`}
        id={optionId(i)}
        role="option"
        aria-selected={chosen}
        data-id={p.id}
        data-index={i}
        class={`${s.option} ${i === active ? s.active : ''}`}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => pick(p)}
      >
        <span class={s.check} aria-hidden="true">
          {chosen ? '✓' : ''}
        </span>
        <span class={s.name}>{p.name}</span>
        {p.detail && <span class={s.detail}>{p.detail}</span>}
      </li>
    );
  };

  const status =
    results.state === 'loading'
      ? words.searching
      : results.state === 'done'
        ? options.length
          ? words.count(results.items.length, results.total)
          : words.none
        : '';

  return (
    <div class={s.picker} data-picker={id} data-kind={kind}>
      <label for={id} id={`${id}-label`}>
        {label}
      </label>
      {value.length > 0 && (
        <ul class={s.chips} aria-label={words.selected(label)} data-testid="chips">
          {value.map((v) => {
            const p = labels[v];
            const name = p?.name ?? v;
            return (
              <li key={v} class={`${s.chip} ${p === null ? s.missing : ''}`} data-id={v}>
                <span class={s.chipName}>{name}</span>
                {p === null ? (
                  <span class={s.detail}>{`${v} · ${words.missing}`}</span>
                ) : (
                  p && chipDetail(p) && <span class={s.detail}>{chipDetail(p)}</span>
                )}
                <button type="button" class={s.remove} aria-label={words.remove(name)} onClick={() => unpick(v)}>
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <input
        id={id}
        name={id}
        class={s.input}
        type="text"
        role="combobox"
        autocomplete="off"
        spellcheck={false}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        placeholder={typedMode ? words.typeIds : words.search[kind]}
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
          if (typedMode) takeTyped();
        }}
        onKeyDown={onKeyDown}
      />
      {open && (
        <ul
          id={listId}
          ref={listRef}
          role="listbox"
          class={s.list}
          aria-labelledby={`${id}-label`}
          aria-multiselectable={multiple || undefined}
          data-state={results.state}
        >
          {recents.length > 0 && (
            <li role="presentation" class={s.group}>
              {words.recent}
            </li>
          )}
          {recents.map((p, i) => option(p, i))}
          {recents.length > 0 && found.length > 0 && (
            <li role="presentation" class={s.group}>
              {words.results}
            </li>
          )}
          {found.map((p, i) => option(p, recents.length + i))}
          {hasMore && (
            <li
              id={optionId(options.length)}
              role="option"
              aria-selected={false}
              data-index={options.length}
              data-more
              class={`${s.option} ${s.more} ${active === options.length ? s.active : ''}`}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => void more()}
            >
              {words.more}
            </li>
          )}
          {results.state === 'error' && (
            <li role="presentation" class="error small">
              {errorText(results.error)}
            </li>
          )}
          {status && (
            <li role="presentation" class={s.status}>
              {status}
            </li>
          )}
        </ul>
      )}
      <span class="sr-only" aria-live="polite">
        {said}
      </span>
    </div>
  );
}
