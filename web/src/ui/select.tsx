import * as RadixSelect from '@radix-ui/react-select';

/**
 * A choice among a few options, in place of the browser's <select>: a combobox button that opens a listbox (Radix
 * Select). The keyboard works as a select's does (arrow keys, Home and End, typing an option's first letters, Enter,
 * Escape, focus back on the button); a screen reader hears the control's name, the option shown and the list.
 */

export interface SelectOption {
  value: string;
  label: string;
  /** What a pointer resting on the option shows. */
  title?: string;
  disabled?: boolean;
}

// Radix reserves the empty string for "no value"; an option of ours whose value is empty ("–", "Default") goes by
// this stand-in inside the primitive and comes back as '' to the screen.
const EMPTY = '\u2400none';
const inside = (value: string) => (value === '' ? EMPTY : value);
const outside = (value: string) => (value === EMPTY ? '' : value);

export function Select({
  label,
  value,
  options,
  onChange,
  disabled = false,
  className,
  id,
  placeholder = '–',
  onOpen,
}: {
  /** The control's accessible name: kept the same as a visible label beside it says. */
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  disabled?: boolean;
  className?: string;
  /** For a <label htmlFor> that names the control. */
  id?: string;
  /** What the button shows while the value is none of the options. */
  placeholder?: string;
  /** Called each time the list opens (a screen that reads its options then). */
  onOpen?: () => void;
}) {
  return (
    <RadixSelect.Root
      value={inside(value)}
      onValueChange={(next) => onChange(outside(next))}
      onOpenChange={(open) => {
        if (open) onOpen?.();
      }}
      disabled={disabled}
    >
      <RadixSelect.Trigger
        id={id}
        aria-label={label}
        data-value={value}
        // nodrag and nokey: on a card, pressing it never drags the card, and its keys never move or delete cards.
        className={`select-trigger nodrag nokey${className ? ` ${className}` : ''}`}
      >
        <RadixSelect.Value placeholder={placeholder} />
        <RadixSelect.Icon className="select-icon">▾</RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content
          className="select-content nokey nowheel"
          position="popper"
          sideOffset={4}
          collisionPadding={8}
          // The open list's keys are its own: Escape closes the list, not the dialog or the Present screen around it,
          // and no key reaches the handlers of the card or the page the select sits in.
          onEscapeKeyDown={(event) => event.stopPropagation()}
          onKeyDown={(event) => event.stopPropagation()}
        >
          <RadixSelect.ScrollUpButton className="select-scroll" aria-hidden>
            ▴
          </RadixSelect.ScrollUpButton>
          <RadixSelect.Viewport className="select-viewport">
            {options.map((option) => (
              <RadixSelect.Item
                key={option.value}
                value={inside(option.value)}
                disabled={option.disabled}
                title={option.title}
                data-value={option.value}
                className="select-item"
              >
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                {/* The tick is drawn by CSS, so an option's text is its words alone. */}
                <RadixSelect.ItemIndicator className="select-check" />
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
          <RadixSelect.ScrollDownButton className="select-scroll" aria-hidden>
            ▾
          </RadixSelect.ScrollDownButton>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}

/** Options from a record of value → words (the contract's choice lists). */
export function optionsOf(choices: Record<string, string>): SelectOption[] {
  return Object.entries(choices).map(([value, label]) => ({ value, label }));
}
