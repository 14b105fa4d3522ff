import type { Locator, Page } from 'playwright-core';

/**
 * The page's choices as a person makes them: every select of the web canvas is a combobox button that opens a
 * listbox (web/src/ui/select.tsx), so a test opens it and clicks the option, as a person does with a mouse.
 */

/** An option by the words it shows (exactly, or a pattern), or by the value the screen saves. */
export type OptionChoice = string | RegExp | { value: string };

/**
 * Chooses `option` in the select named `label` inside `within` (a page or a part of it); with `label` null,
 * `within` is the select itself. Returns once the list has closed. A browser <select> (a page of the server's own,
 * such as the OAuth consent page) is chosen in the same call.
 */
export async function chooseOption(
  within: Page | Locator,
  label: string | RegExp | null,
  option: OptionChoice,
): Promise<void> {
  const combobox =
    label === null
      ? (within as Locator)
      : within.getByRole('combobox', { name: label, exact: typeof label === 'string' });
  if ((await combobox.evaluate((element) => element.tagName)) === 'SELECT') {
    await combobox.selectOption(
      typeof option === 'string' ? { label: option } : 'value' in option ? option.value : option.source,
    );
    return;
  }
  const page = 'page' in within ? within.page() : within;
  await combobox.click();
  const listbox = page.getByRole('listbox');
  const item =
    typeof option === 'object' && 'value' in option
      ? listbox.locator(`[role="option"][data-value="${option.value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"]`)
      : listbox.getByRole('option', { name: option, exact: typeof option === 'string' });
  await item.click();
  await listbox.waitFor({ state: 'detached' });
}

/** The value a select shows now (what the screen would save), as `inputValue()` read a browser <select>. */
export async function chosenValue(combobox: Locator): Promise<string> {
  return (await combobox.getAttribute('data-value')) ?? (await combobox.inputValue());
}
