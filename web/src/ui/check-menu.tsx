import { useEffect, useRef } from 'react';

/**
 * A menu of checkboxes behind a button (the shot list's Columns, the board page's Fields): a disclosure, so the
 * keyboard opens it with Enter or Space and Escape closes it, back on its button; a click elsewhere closes it too.
 */
export function CheckMenu<Id extends string>({
  label,
  options,
  checked,
  onChange,
}: {
  label: string;
  options: ReadonlyArray<{ id: Id; label: string }>;
  checked: readonly Id[];
  onChange: (checked: Id[]) => void;
}) {
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: PointerEvent) => {
      if (menu.current?.open && !menu.current.contains(event.target as Node)) menu.current.open = false;
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, []);
  return (
    <details
      ref={menu}
      className="check-menu"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !menu.current?.open) return;
        event.stopPropagation();
        menu.current.open = false;
        menu.current.querySelector('summary')?.focus();
      }}
    >
      <summary className="button-small">{label}</summary>
      <fieldset>
        <legend className="visually-hidden">{label}</legend>
        {options.map((option) => (
          <label key={option.id}>
            <input
              type="checkbox"
              checked={checked.includes(option.id)}
              onChange={(event) =>
                onChange(
                  options
                    .map((each) => each.id)
                    .filter((id) => (id === option.id ? event.target.checked : checked.includes(id))),
                )
              }
            />{' '}
            {option.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
