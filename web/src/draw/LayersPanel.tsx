import { useState } from 'react';
import {
  DRAWING_LAYERS,
  type Drawing,
  type DrawingChange,
  type DrawingLayerName,
} from '../../../src/contract/index.js';

/**
 * The frame editor's layers (docs/drawing.md, "Layers"), top first: which one a stroke lands on, and each one's
 * visibility, lock and opacity, every change a save of its own (and undoable in the editor).
 */

const LAYER_LABELS: Record<DrawingLayerName, string> = { rough: 'Rough', tone: 'Tone', ink: 'Ink', notes: 'Notes' };

export function LayersPanel({
  drawing,
  active,
  onActive,
  onChange,
}: {
  drawing: Drawing | null;
  active: DrawingLayerName;
  onActive: (layer: DrawingLayerName) => void;
  onChange: (changes: DrawingChange[]) => void;
}) {
  // A layer's opacity while its slider moves: saved once, when it is let go.
  const [opacityDraft, setOpacityDraft] = useState<{ layer: DrawingLayerName; opacity: number } | null>(null);
  const commitOpacity = () => {
    const draftOpacity = opacityDraft;
    setOpacityDraft(null);
    const current = drawing?.layers.find((candidate) => candidate.name === draftOpacity?.layer);
    if (draftOpacity && current && current.opacity !== draftOpacity.opacity)
      onChange([{ op: 'set_layer', layer: draftOpacity.layer, opacity: draftOpacity.opacity }]);
  };
  return (
    <aside className="frame-editor-layers" aria-label="Layers">
      <h2>Layers</h2>
      {[...DRAWING_LAYERS].reverse().map((name) => {
        const each = drawing?.layers.find((candidate) => candidate.name === name);
        return (
          <div key={name} className={active === name ? 'layer-row layer-active' : 'layer-row'} data-layer={name}>
            <label className="check">
              <input type="radio" name="active-layer" checked={active === name} onChange={() => onActive(name)} />{' '}
              {LAYER_LABELS[name]} <span className="muted">({each?.strokes.length ?? 0})</span>
            </label>
            <label className="check">
              <input
                type="checkbox"
                checked={each?.visible ?? true}
                onChange={(event) => onChange([{ op: 'set_layer', layer: name, visible: event.target.checked }])}
              />{' '}
              Visible
            </label>
            <label className="check">
              <input
                type="checkbox"
                checked={each?.locked ?? false}
                onChange={(event) => onChange([{ op: 'set_layer', layer: name, locked: event.target.checked }])}
              />{' '}
              Locked
            </label>
            <input
              type="range"
              min={0}
              max={1}
              step={0.05}
              value={opacityDraft?.layer === name ? opacityDraft.opacity : (each?.opacity ?? 1)}
              aria-label={`Opacity of the ${LAYER_LABELS[name]} layer`}
              onChange={(event) => setOpacityDraft({ layer: name, opacity: Number(event.target.value) })}
              onPointerUp={commitOpacity}
              onKeyUp={commitOpacity}
            />
          </div>
        );
      })}
    </aside>
  );
}
