// The "+" on a connection: a menu of the kinds of step that can go there.
import { Component } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n';
import { addKinds, type AddKind } from '../model/kinds';
import type { DesignerStore } from '../store';
import s from '../designer.module.css';

interface SlotProps {
  slot: number[];
  store: DesignerStore;
  open: boolean;
  onOpen: (key: string | null) => void;
  inBranch: boolean;
}

/** Redrawn only when its own slot or state changes: a column has one per connection. */
export class AddSlot extends Component<SlotProps> {
  shouldComponentUpdate(next: SlotProps) {
    const p = this.props as SlotProps;
    return next.open !== p.open || next.inBranch !== p.inBranch || next.slot.join() !== p.slot.join();
  }
  render(props: SlotProps) {
    return <Slot {...props} />;
  }
}

function Slot({ slot, store, open, onOpen, inBranch }: SlotProps) {
  const key = slot.join(',');
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) menu.current?.querySelector('button')?.focus();
  }, [open]);
  // An end cuts the column short: offered only inside a branch, where the others go on.
  const kinds = addKinds.filter((k) => k !== 'end' || inBranch);
  const add = (kind: AddKind) => {
    onOpen(null);
    store.insert(slot, kind);
  };
  return (
    <div class={s.slot} data-slot={key}>
      <span class={s.line} />
      <button
        type="button"
        class={s.plus}
        aria-label={t.designer.add}
        title={t.designer.add}
        aria-expanded={open}
        onClick={() => onOpen(open ? null : key)}
      >
        +
      </button>
      {open && (
        <div
          class={s.menu}
          role="menu"
          ref={menu}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onOpen(null);
          }}
        >
          {kinds.map((k) => (
            <button key={k} type="button" role="menuitem" data-kind={k} onClick={() => add(k)}>
              {t.designer.kinds[k]}
            </button>
          ))}
        </div>
      )}
      <span class={s.line} />
    </div>
  );
}
