import { CardShell, Chips, ErrorLine, VideoPlayer, runOutputs, type CardProps } from './parts.js';
import { recordOf, formatMs, list, num, text } from '../model/values.js';

/** videoComposeNode: the clips on its timeline, the audio track, and the composed video. */
export function VideoComposeNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const clips = list(data.clips).map(recordOf);
  const results = runOutputs(card.data.state, 'video');
  const url = results.ready[0] ?? text(data.resultVideoUrl);
  return (
    <CardShell card={card} runnable className="card-wide">
      <VideoPlayer url={url} />
      <div className="timeline">
        {clips.slice(0, 16).map((clip, index) => (
          <span key={text(clip.id) ?? index} className="clip" title={text(clip.videoUrl) ?? 'no video yet'}>
            {index + 1} · {formatMs(num(clip.startMs)) ?? '0 s'}
          </span>
        ))}
      </div>
      <Chips
        items={[
          `${clips.length} clips`,
          text(data.audioTrackUrl) ? 'audio track' : undefined,
          text(data.aspectRatio),
          data.isExporting === true ? 'exporting' : undefined,
        ]}
      />
      <ErrorLine message={text(data.exportError)} />
    </CardShell>
  );
}
