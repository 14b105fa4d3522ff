import { DirectorSummary } from './director-summary.js';
import { CardShell, Chips, ErrorLine, ImagePreview, ImageResults, PromptEditor, imageUrlOf, shownOutputs, type CardProps } from './parts.js';
import { dataOf, num, text } from './values.js';

/** imageGenNode: the generated images (pending ones as placeholders), the prompt, model, size and count. */
export function ImageGenNodeCard(card: CardProps) {
  const data = dataOf(card.data.node.data);
  const results = shownOutputs(data, card.data.state, 'image');
  const title = text(data.displayName) ?? 'generated image';
  const count = num(data.count);
  return (
    <CardShell card={card} runnable>
      {results.ready.length + results.pending > 0 ? (
        <ImageResults urls={results.ready} pending={results.pending} alt={title} />
      ) : (
        <ImagePreview url={imageUrlOf(data)} alt={title} />
      )}
      <PromptEditor card={card} placeholder="Describe the frame…" />
      <Chips
        items={[
          text(data.model),
          text(data.size),
          text(data.aspectRatio),
          count !== undefined ? `×${count}` : undefined,
          text(data.generationBatchStatus)?.replaceAll('_', ' '),
        ]}
      />
      <DirectorSummary bundle={data.director_control_bundle} />
      <ErrorLine message={text(data.generationError)} />
    </CardShell>
  );
}
