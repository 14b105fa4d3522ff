import { CardShell, Chips, ErrorLine, PromptEditor, VideoPlayer, runOutputs, type CardProps } from './parts.js';
import { recordOf, formatMs, num, text } from '../model/values.js';

/** videoNode: the video (the latest run's when it has one), its prompt, duration and aspect. */
export function VideoNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const results = runOutputs(card.data.state, 'video');
  const url = results.ready[0] ?? text(data.videoUrl);
  return (
    <CardShell card={card} runnable>
      {url ? (
        <VideoPlayer url={url} poster={text(data.previewImageUrl)} nodeId={card.data.node.id} />
      ) : (
        <div className="media-empty">{results.pending ? 'Rendering…' : 'No video yet'}</div>
      )}
      <PromptEditor card={card} placeholder="Describe the shot…" />
      <Chips
        items={[formatMs(num(data.durationMs)), text(data.aspectRatio), text(data.model), text(data.sourceFileName)]}
      />
      <ErrorLine message={text(data.generationError)} />
    </CardShell>
  );
}
