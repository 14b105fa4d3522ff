import { CardShell, Chips, EditableText, ErrorLine, useSaveField, type CardProps } from './parts.js';
import { recordOf, num, text } from '../model/values.js';

/** beatContextNode: which beat of which episode, what happens in it, and whether it is in sync. */
export function BeatContextNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const save = useSaveField(card.data.node.id);
  const episode = num(data.episode);
  const beat = num(data.beat);
  return (
    <CardShell card={card} className="card-beat">
      <Chips
        items={[
          episode !== undefined ? `Episode ${episode}` : undefined,
          beat !== undefined ? `Beat ${beat}` : undefined,
          text(data.syncStatus),
        ]}
      />
      <EditableText
        label="beat content"
        value={text(data.content) ?? ''}
        placeholder="What happens in this beat…"
        onSave={(next) => save('content', next, 'Edit beat', next)}
      />
      <ErrorLine message={text(data.errorMessage)} />
    </CardShell>
  );
}
