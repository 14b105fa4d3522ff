/**
 * Whether a key pressed on `target` belongs to a field or a control that uses keys of its own (a text box, a select,
 * an open list, a menu, a tab list) rather than to the page's shortcuts: arrow keys move cards, letters add shots,
 * "?" lists the keys, only when none of these has the focus.
 */
export function isKeyForField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return (
    target.closest(
      '[role="combobox"], [role="listbox"], [role="option"], [role="menu"], [role="menuitem"], [role="menuitemcheckbox"], .nokey',
    ) !== null
  );
}
