import * as RadixMenu from '@radix-ui/react-dropdown-menu';

/**
 * A button that opens a menu (Radix Dropdown Menu): arrow keys move through the items, typing jumps to one, Enter or
 * Space chooses, Escape closes it back on its button. Items are actions, or checkboxes that stay open to tick several.
 */

export type MenuItem =
  | { kind: 'action'; label: string; onSelect: () => void; disabled?: boolean }
  | { kind: 'check'; label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean };

export function Menu({
  label,
  items,
  className = 'button-small',
}: {
  /** The button's words, which are also its name. */
  label: string;
  items: readonly MenuItem[];
  className?: string;
}) {
  return (
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger className={`${className} nokey`}>{label}</RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content className="ui-menu nokey" sideOffset={4} align="start" collisionPadding={8}>
          {items.map((item) =>
            item.kind === 'action' ? (
              <RadixMenu.Item
                key={item.label}
                className="ui-menu-item"
                disabled={item.disabled}
                onSelect={() => item.onSelect()}
              >
                {item.label}
              </RadixMenu.Item>
            ) : (
              <RadixMenu.CheckboxItem
                key={item.label}
                className="ui-menu-item"
                checked={item.checked}
                disabled={item.disabled}
                onCheckedChange={(checked) => item.onChange(checked === true)}
                // Ticking one keeps the menu open, to tick the next.
                onSelect={(event) => event.preventDefault()}
              >
                <span className="ui-menu-check" aria-hidden>
                  <RadixMenu.ItemIndicator>✓</RadixMenu.ItemIndicator>
                </span>
                {item.label}
              </RadixMenu.CheckboxItem>
            ),
          )}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
