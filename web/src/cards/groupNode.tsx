import { Handle, NodeResizer, Position, useStore } from '@xyflow/react';
import { useCanvas, useEditable } from '../ui/canvas-context.js';
import { updateNode } from '../model/intents.js';
import { EditableText, useSaveField, type CardProps } from './parts.js';
import { recordOf, text } from '../model/values.js';

/** groupNode: a frame that holds its children (their parentId); its label is edited in place. */
export function GroupNodeCard(card: CardProps) {
  const { node, highlight } = card.data;
  const data = recordOf(node.data);
  const editable = useEditable();
  const { controller } = useCanvas();
  const save = useSaveField(node.id);
  const background = text(data.backgroundColor);
  const reach = useChildrenReach(node.id);
  return (
    <div
      className={`group-frame${card.selected ? ' card-selected' : ''}${highlight ? ' card-highlight' : ''}`}
      data-node-id={node.id}
      data-node-type={node.type}
      style={{ ...(background ? { background } : {}), minWidth: reach.width, minHeight: reach.height }}
    >
      {editable ? (
        <NodeResizer
          isVisible={card.selected}
          minWidth={200}
          minHeight={120}
          onResizeEnd={(_event, size) => {
            const set = {
              width: Math.round(size.width),
              height: Math.round(size.height),
              position: { x: Math.round(size.x), y: Math.round(size.y) },
            };
            void controller.submit(
              updateNode(node.id, set, 'Resize group', () => controller.store.getState().lastAuthor),
            );
          }}
        />
      ) : null}
      <Handle type="target" position={Position.Left} isConnectable={editable} />
      <div className="group-label">
        <EditableText
          multiline={false}
          label="group label"
          value={text(data.label) ?? ''}
          placeholder="Group"
          onSave={(next) => save('label', next, 'Rename group', next)}
        />
        {highlight ? <span className="card-author">{highlight}</span> : null}
      </div>
      <Handle type="source" position={Position.Right} isConnectable={editable} />
    </div>
  );
}

/** Room kept between a group's frame and the cards it holds. */
const FRAME_PADDING = 24;

/**
 * How far the group's cards reach, as drawn: a card that grew with its content (results, a long text) makes the frame
 * grow with it, so the card never spills over the group's edge onto its neighbours. Drawn only: the stored
 * size changes when a person resizes the group.
 */
function useChildrenReach(groupId: string): { width: number; height: number } {
  const reach = useStore((flow) => {
    let width = 0;
    let height = 0;
    for (const child of flow.parentLookup.get(groupId)?.values() ?? []) {
      width = Math.max(width, child.position.x + (child.measured.width ?? 0));
      height = Math.max(height, child.position.y + (child.measured.height ?? 0));
    }
    // A string, so the group draws again only when the reach changes.
    return `${Math.ceil(width)}x${Math.ceil(height)}`;
  });
  const [width, height] = reach.split('x').map(Number) as [number, number];
  return { width: width > 0 ? width + FRAME_PADDING : 0, height: height > 0 ? height + FRAME_PADDING : 0 };
}
