import { useCardVersions } from './card-versions.js';
import { DirectorSummary } from './director-summary.js';
import {
  CardShell,
  Chips,
  ErrorLine,
  ImagePreview,
  ImageResults,
  PromptEditor,
  browsedImages,
  imageUrlOf,
  pictureOfCard,
  shownOutputs,
  type CardProps,
} from './parts.js';
import { pinsOnPicture } from './review-marks.js';
import { recordOf, num, text } from '../model/values.js';

/** imageGenNode: the generated images (pending ones as placeholders), the prompt, model, size and count. */
export function ImageGenNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const versions = useCardVersions(card.data.node.id, card.data.state, text(data.externalRunId));
  const results = versions.browsing ? browsedImages(versions.browsing) : shownOutputs(data, card.data.state, 'image');
  const title = text(data.displayName) ?? 'generated image';
  const count = num(data.count);
  const pinned = pinsOnPicture(card.data.node.id, pictureOfCard(data, card.data.state));
  return (
    <CardShell card={card} runnable>
      {results.ready.length + results.pending > 0 ? (
        <ImageResults urls={results.ready} pending={results.pending} alt={title} around={pinned} />
      ) : (
        pinned(imageUrlOf(data), <ImagePreview url={imageUrlOf(data)} alt={title} />)
      )}
      {versions.controls}
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
