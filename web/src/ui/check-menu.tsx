import { Menu } from './menu.js';

/**
 * A menu of checkboxes behind a button (the shot list's Columns, the board page's Fields), on the Menu wrapper: Enter,
 * Space or the down arrow opens it, the arrow keys go from box to box, Space ticks one and keeps the menu open for the
 * next, Escape (or a click elsewhere) closes it, back on its button.
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
  return (
    <Menu
      label={label}
      className="button-small ui-menu-trigger"
      items={options.map((option) => ({
        kind: 'check' as const,
        label: option.label,
        checked: checked.includes(option.id),
        onChange: (on: boolean) =>
          onChange(options.map((each) => each.id).filter((id) => (id === option.id ? on : checked.includes(id)))),
      }))}
    />
  );
}
