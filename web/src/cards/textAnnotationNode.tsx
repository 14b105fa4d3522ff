import { CardShell, EditableText, useSaveField, type CardProps } from './parts.js';
import { recordOf, num, text } from '../model/values.js';

/** textAnnotationNode: a note, its text edited in place. */
export function TextAnnotationNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const save = useSaveField(card.data.node.id);
  const content = typeof data.content === 'string' ? data.content : '';
  const style = {
    ...(num(data.fontSize) ? { fontSize: num(data.fontSize) } : {}),
    ...(text(data.textColor) ? { color: text(data.textColor) } : {}),
    ...(text(data.textAlign) ? { textAlign: text(data.textAlign) as 'left' | 'center' | 'right' } : {}),
  };
  return (
    <CardShell card={card} className="card-note">
      <div style={style}>
        <EditableText
          className="note-text"
          label="note text"
          value={content}
          placeholder="Write a note…"
          onSave={(next) => save('content', next, 'Edit note', next)}
        />
      </div>
    </CardShell>
  );
}
