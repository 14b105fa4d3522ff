import { CardShell, Chips, ErrorLine, ImageResults, PromptEditor, runOutputs, type CardProps } from './parts.js';
import { recordOf, list, num, text } from '../model/values.js';

/** storyboardGenNode: the prompt, how many frames, and the generated storyboard sheet. */
export function StoryboardGenNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const results = runOutputs(card.data.state, 'image');
  const frames = num(data.frameCount);
  const resultFrames = list(data.resultFrames).length;
  return (
    <CardShell card={card} runnable className="card-wide">
      <ImageResults urls={results.ready} pending={results.pending} alt={text(data.displayName) ?? 'storyboard'} />
      <PromptEditor card={card} placeholder="Describe the sequence…" />
      <Chips
        items={[
          frames !== undefined ? `${frames} frames` : undefined,
          text(data.aspectRatio),
          text(data.size),
          text(data.model),
          resultFrames ? `${resultFrames} results` : undefined,
        ]}
      />
      <ErrorLine message={text(data.generationError)} />
    </CardShell>
  );
}
