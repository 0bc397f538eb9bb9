/** A list of checkboxes that edits a set of ids (the pickers of people, roles, departments). */
export function CheckList(p: {
  name: string;
  items: { id: string; label: string }[];
  value: string[];
  onChange: (value: string[]) => void;
  /** Shows each item's id after its label when they differ (the designer names ids). */
  showIds?: boolean;
}) {
  return (
    <>
      {p.items.map((item) => (
        <label key={item.id} class="check">
          <input
            type="checkbox"
            name={p.name}
            value={item.id}
            checked={p.value.includes(item.id)}
            onChange={(e) =>
              p.onChange(e.currentTarget.checked ? [...p.value, item.id] : p.value.filter((v) => v !== item.id))
            }
          />
          {p.showIds ? ' ' : null}
          {item.label}
          {p.showIds && <span class="muted small">{item.id !== item.label ? ` ${item.id}` : ''}</span>}
        </label>
      ))}
    </>
  );
}
