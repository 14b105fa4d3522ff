import { useCardVersions } from './card-versions.js';
import { DirectorSummary } from './director-summary.js';
import {
  CardShell,
  Chips,
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
import { recordOf, text } from '../model/values.js';

/** imageNode: the picture (the latest run's results while it has them), its prompt and how it is made. */
export function ImageNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const versions = useCardVersions(card.data.node.id, card.data.state, text(data.externalRunId));
  const results = versions.browsing ? browsedImages(versions.browsing) : shownOutputs(data, card.data.state, 'image');
  const title = text(data.displayName) ?? 'image';
  const pinned = pinsOnPicture(card.data.node.id, pictureOfCard(data, card.data.state));
  return (
    <CardShell card={card} runnable>
      {results.ready.length + results.pending > 0 ? (
        <ImageResults urls={results.ready} pending={results.pending} alt={title} around={pinned} />
      ) : (
        pinned(imageUrlOf(data), <ImagePreview url={imageUrlOf(data)} alt={title} />)
      )}
      {versions.controls}
      <PromptEditor card={card} placeholder="Describe the image…" />
      <Chips
        items={[
          text(data.model),
          text(data.size),
          text(data.aspectRatio),
          text(data.generationMode)?.replaceAll('_', ' '),
        ]}
      />
      <DirectorSummary bundle={data.director_control_bundle} />
    </CardShell>
  );
}
