import { NodeResizer } from '@xyflow/react';
import { Handle, Position } from '@xyflow/react';
import { useCanvas, useEditable } from '../canvas/context.js';
import { updateNode } from '../model/intents.js';
import { EditableText, useSaveField, type CardProps } from './parts.js';
import { dataOf, text } from './values.js';

/** groupNode: a frame that holds its children (their parentId); its label is edited in place. */
export function GroupNodeCard(card: CardProps) {
  const { node, highlight } = card.data;
  const data = dataOf(node.data);
  const editable = useEditable();
  const { controller } = useCanvas();
  const save = useSaveField(node.id);
  const background = text(data.backgroundColor);
  return (
    <div
      className={`group-frame${card.selected ? ' card-selected' : ''}${highlight ? ' card-highlight' : ''}`}
      data-node-id={node.id}
      data-node-type={node.type}
      style={background ? { background } : undefined}
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
