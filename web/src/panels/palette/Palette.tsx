import { useReactFlow } from '@xyflow/react';
import { useCanvas, useEditable } from '../../ui/canvas-context.js';
import { useUploads } from '../../canvas/FileUploads.js';
import { createItems } from '../../model/intents.js';
import { PALETTE, paletteNode, typeLabel, type PaletteEntry } from '../../model/palette.js';
import { drawnBoxes, freeSpotNear, measuredSizes, NEW_CARD } from '../../model/placement.js';
import { markFirstStep } from '../../model/first-steps.js';

const GROUPS: Array<PaletteEntry['group']> = ['Structure', 'Story', 'Image', 'Video', 'Sound', '3D', 'Skills'];

/** Adds a node of any type, with data valid for it, in the middle of what the person is looking at. */
export function Palette() {
  const { controller } = useCanvas();
  const editable = useEditable();
  const flow = useReactFlow();
  const uploads = useUploads();
  const add = (entry: PaletteEntry) => {
    // An upload card starts from the person's files: the picker, not an empty card.
    if (entry.type === 'uploadNode' && uploads) return uploads.pick();
    const pane = document.querySelector('.react-flow')?.getBoundingClientRect();
    const center = pane
      ? flow.screenToFlowPosition({ x: pane.left + pane.width / 2, y: pane.top + pane.height / 2 })
      : { x: 0, y: 0 };
    // The nearest spot to the view's centre where the new card covers nothing.
    const size = entry.size ?? NEW_CARD;
    const boxes = drawnBoxes(controller.store.getState().layout.nodes, measuredSizes(flow.getNodes()));
    const node = paletteNode(entry, freeSpotNear(boxes, center, size));
    void controller.submit(createItems([node], [], `Add ${entry.label.toLowerCase()}`));
    markFirstStep('addCard');
  };
  return (
    <nav className="palette" aria-label="Add a node">
      <h2>Add</h2>
      {!editable ? <p className="muted">You can view this canvas; an editor or owner can change it.</p> : null}
      {GROUPS.map((group) => (
        <section key={group}>
          <h3>{group}</h3>
          {PALETTE.filter((entry) => entry.group === group).map((entry) => (
            <button
              key={entry.type}
              type="button"
              className="palette-item"
              disabled={!editable}
              title={typeLabel(entry.type)}
              onClick={() => add(entry)}
            >
              {entry.type === 'uploadNode' ? 'Upload files…' : entry.label}
            </button>
          ))}
        </section>
      ))}
    </nav>
  );
}
