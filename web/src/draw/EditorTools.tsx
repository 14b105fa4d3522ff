import type { Stroke } from '../../../src/contract/index.js';
import { GUIDE_LABELS, GUIDE_NAMES, type GuideName } from '../../../src/shared/frame-shape.js';

/** The frame editor's tools panel (docs/drawing.md, "Tools"): tool, colour, size, guides, onion skin, light table. */

export const TOOLS: Array<{ tool: Stroke['tool']; label: string; key: string }> = [
  { tool: 'pencil', label: 'Pencil', key: 'p' },
  { tool: 'pen', label: 'Pen', key: 'n' },
  { tool: 'brush', label: 'Brush', key: 'b' },
  { tool: 'eraser', label: 'Eraser', key: 'e' },
  { tool: 'line', label: 'Line', key: 'l' },
  { tool: 'arrow', label: 'Arrow', key: 'a' },
  { tool: 'rect', label: 'Box', key: 'r' },
  { tool: 'ellipse', label: 'Ellipse', key: 'o' },
  { tool: 'fill', label: 'Fill', key: 'f' },
  { tool: 'text', label: 'Text', key: 't' },
];

/** The palette: graphite, ink, greys for tone, and the colours of notes. */
export const COLOURS = ['#111111', '#4b5563', '#9ca3af', '#ffffff', '#dc2626', '#2563eb', '#16a34a', '#f59e0b'];
const SIZES = [2, 4, 8, 16, 32];

export interface Onion {
  previous: boolean;
  next: boolean;
}

export function EditorTools({
  tool,
  onTool,
  colour,
  onColour,
  size,
  onSize,
  guides,
  onGuides,
  onion,
  onOnion,
  underOpacity,
  onUnderOpacity,
  hasPrevious,
  hasNext,
}: {
  tool: Stroke['tool'];
  onTool: (tool: Stroke['tool']) => void;
  colour: string;
  onColour: (colour: string) => void;
  size: number;
  onSize: (size: number) => void;
  guides: GuideName[];
  onGuides: (guides: GuideName[]) => void;
  onion: Onion;
  onOnion: (onion: Onion) => void;
  underOpacity: number;
  onUnderOpacity: (opacity: number) => void;
  hasPrevious: boolean;
  hasNext: boolean;
}) {
  return (
    <aside className="frame-editor-tools" aria-label="Tools">
      <fieldset>
        <legend>Tool</legend>
        {TOOLS.map((each) => (
          <button
            key={each.tool}
            type="button"
            className="button-small"
            aria-pressed={tool === each.tool}
            title={`${each.label} (${each.key.toUpperCase()})`}
            onClick={() => onTool(each.tool)}
          >
            {each.label}
          </button>
        ))}
      </fieldset>
      <fieldset>
        <legend>Colour</legend>
        {COLOURS.map((each) => (
          <button
            key={each}
            type="button"
            className="swatch"
            style={{ background: each }}
            aria-pressed={colour === each}
            aria-label={`Colour ${each}`}
            onClick={() => onColour(each)}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Size</legend>
        {SIZES.map((each) => (
          <button
            key={each}
            type="button"
            className="button-small"
            aria-pressed={size === each}
            onClick={() => onSize(each)}
          >
            {each}
          </button>
        ))}
      </fieldset>
      <fieldset>
        <legend>Guides</legend>
        {GUIDE_NAMES.map((name) => (
          <label key={name} className="check">
            <input
              type="checkbox"
              checked={guides.includes(name)}
              onChange={(event) =>
                onGuides(event.target.checked ? [...guides, name] : guides.filter((each) => each !== name))
              }
            />{' '}
            {GUIDE_LABELS[name]}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Onion skin</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={onion.previous}
            disabled={!hasPrevious}
            onChange={(event) => onOnion({ ...onion, previous: event.target.checked })}
          />{' '}
          Previous shot
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={onion.next}
            disabled={!hasNext}
            onChange={(event) => onOnion({ ...onion, next: event.target.checked })}
          />{' '}
          Next shot
        </label>
        <label className="check">
          Picture under{' '}
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={underOpacity}
            aria-label="Opacity of the picture under the drawing (light table)"
            onChange={(event) => onUnderOpacity(Number(event.target.value))}
          />
        </label>
      </fieldset>
    </aside>
  );
}
