import { CardShell, ErrorLine, VideoPlayer, runOutputs, type CardProps } from './parts.js';
import { recordOf, formatMs, list, num, text } from '../model/values.js';

/** videoStoryNode: its shots in order (prompt and duration), and the video made of them. */
export function VideoStoryNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const shots = list(data.shots).map(recordOf);
  const results = runOutputs(card.data.state, 'video');
  const url = results.ready[0] ?? text(data.resultVideoUrl);
  const total = shots.reduce((sum, shot) => sum + (num(shot.durationMs) ?? 0), 0);
  return (
    <CardShell card={card} runnable className="card-wide">
      <VideoPlayer url={url} />
      <ol className="shots">
        {shots.slice(0, 12).map((shot, index) => (
          <li key={text(shot.id) ?? index}>
            <span>{text(shot.prompt) ?? '(no prompt)'}</span>
            <span className="muted"> {formatMs(num(shot.durationMs))}</span>
          </li>
        ))}
      </ol>
      <div className="muted">
        {shots.length} shots{total ? ` · ${formatMs(total)}` : ''}
      </div>
      <ErrorLine message={text(data.generationError)} />
    </CardShell>
  );
}
