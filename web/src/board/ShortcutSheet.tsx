import { Dialog } from '../ui/dialog.js';

/** The board page's keys (docs/ui.md, "The board page"), listed once for the "?" sheet. */
export const BOARD_KEYS: ReadonlyArray<{ view: string; keys: ReadonlyArray<readonly [string, string]> }> = [
  {
    view: 'Anywhere on the page',
    keys: [
      ['?', 'This list of keys'],
      ['Ctrl+Z', 'Undo your last change'],
    ],
  },
  {
    view: 'Grid (a frame focused)',
    keys: [
      ['← → ↑ ↓', 'Move the focus (and the selection) from frame to frame'],
      ['Home / End', 'The first / the last shot'],
      ['Shift+arrows', 'Select a run of shots'],
      ['Ctrl+arrows', 'Move the focus only'],
      ['Space', 'Select or unselect the focused shot'],
      ['Ctrl+A / Esc', 'Select every shot / none'],
      ['Enter', 'Open the frame editor'],
      ['I / Shift+I', 'Insert a shot after / before the focused one'],
      ['D', 'Duplicate the selected shots'],
      ['Delete', 'Delete the selected shots'],
      ['Alt+← / Alt+→', 'Move the selected shots one place earlier / later'],
      ['+ / −', 'Larger / smaller frames'],
    ],
  },
  {
    view: 'Fields',
    keys: [
      ['Enter', 'Save the field (Shift+Enter: a new line in a text)'],
      ['Esc', 'Put back what the field held'],
      ['Tab', 'The next field (saves what you typed)'],
    ],
  },
  {
    view: 'Animatic',
    keys: [
      ['Space', 'Play / pause'],
      ['[ / ]', 'Trim the focused shot by a frame (24 fps)'],
      ['Shift+[ / Shift+]', 'Trim it by a second'],
    ],
  },
];

/** The "?" sheet: every key of the board page, in a modal dialog that Escape closes, the focus going back. */
export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} className="shortcut-sheet" title="Keys of the board page">
      {BOARD_KEYS.map((group) => (
        <section key={group.view}>
          <h3>{group.view}</h3>
          <dl>
            {group.keys.map(([keys, what]) => (
              <div key={keys} className="shortcut">
                <dt>
                  <kbd>{keys}</kbd>
                </dt>
                <dd>{what}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Dialog>
  );
}
