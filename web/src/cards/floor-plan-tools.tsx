import { useState } from 'react';
import type { FloorPlanNodeData } from '../../../src/contract/index.js';
import type { PlanItem } from '../model/floor-plan.js';

/**
 * The floor plan card's tools (docs/storyboards.md, "Floor plans"): what a click on the plan makes (a wall's point, a
 * door, a prop, a character) or Select, the name a new prop or character gets, and the selected item's name and
 * Delete.
 */

const KIND_WORDS: Record<PlanItem['kind'], string> = {
  wall: 'Wall',
  door: 'Door',
  prop: 'Prop',
  character: 'Character',
};

/** The name of a prop or a character on the plan; null for walls and doors (and an item no longer there). */
function nameOf(plan: FloorPlanNodeData, item: PlanItem): string | null {
  if (item.kind === 'prop') return plan.props?.find((prop) => prop.id === item.id)?.name ?? null;
  if (item.kind === 'character') return plan.characters?.find((character) => character.id === item.id)?.name ?? null;
  return null;
}

export function FloorPlanTools<Tool extends string>({
  tool,
  tools,
  onTool,
  newName,
  onNewName,
}: {
  tool: Tool;
  tools: Array<{ tool: Tool; label: string; hint: string }>;
  onTool: (tool: Tool) => void;
  newName: string;
  onNewName: (name: string) => void;
}) {
  const hint = tools.find((each) => each.tool === tool)?.hint;
  return (
    <div className="floor-plan-tools nodrag nowheel">
      <div role="group" aria-label="Plan tool" className="row">
        {tools.map((each) => (
          <button
            key={each.tool}
            type="button"
            className="button-small"
            aria-pressed={tool === each.tool}
            onClick={() => onTool(each.tool)}
          >
            {each.label}
          </button>
        ))}
        {tool === 'prop' || tool === 'character' ? (
          <input
            aria-label={`Name of the new ${tool}`}
            placeholder={tool === 'prop' ? 'Prop' : 'Character'}
            size={12}
            maxLength={200}
            value={newName}
            onChange={(event) => onNewName(event.target.value)}
          />
        ) : null}
      </div>
      {hint ? <p className="muted floor-plan-hint">{hint}</p> : null}
    </div>
  );
}

/**
 * The selected item under the drawing (below it, so selecting never moves the drawing under the pointer): its name
 * for a prop or a character, and Delete.
 */
export function PlanSelection({
  selected,
  plan,
  onRename,
  onDelete,
}: {
  selected: PlanItem;
  plan: FloorPlanNodeData;
  onRename: (item: PlanItem, name: string) => void;
  onDelete: (item: PlanItem) => void;
}) {
  const name = nameOf(plan, selected);
  return (
    <div className="row" data-plan-selected={`${selected.kind}:${selected.id}`}>
      <span>{KIND_WORDS[selected.kind]} selected</span>
      {name !== null ? (
        <NameInput
          key={`${selected.id}:${name}`}
          label={`Name of the ${selected.kind}`}
          name={name}
          onSave={(next) => onRename(selected, next)}
        />
      ) : null}
      <button type="button" className="button-small" onClick={() => onDelete(selected)}>
        Delete {selected.kind}
      </button>
    </div>
  );
}

/** A name saved when the field is left or Enter pressed, if it changed and is not empty. */
function NameInput({ label, name, onSave }: { label: string; name: string; onSave: (name: string) => void }) {
  const [typed, setTyped] = useState(name);
  const save = () => {
    const next = typed.trim();
    if (next && next !== name) onSave(next);
  };
  return (
    <input
      aria-label={label}
      size={12}
      maxLength={200}
      value={typed}
      onChange={(event) => setTyped(event.target.value)}
      onBlur={save}
      onKeyDown={(event) => {
        if (event.key === 'Enter') save();
      }}
    />
  );
}
