import { AudioPlayer, CardShell, Chips, ErrorLine, runOutputs, type CardProps } from './parts.js';
import { recordOf, formatMs, num, text } from '../model/values.js';

/** audioTrimNode: the cut (start and end) of the audio connected to it, and the trimmed result. */
export function AudioTrimNodeCard(card: CardProps) {
  const data = recordOf(card.data.node.data);
  const results = runOutputs(card.data.state, 'audio');
  const url = results.ready[0] ?? text(data.resultAudioUrl);
  const start = num(data.trimStartMs) ?? 0;
  const end = num(data.trimEndMs);
  return (
    <CardShell card={card} runnable>
      <div className="trim-range">
        {formatMs(start)} → {end !== undefined ? formatMs(end) : 'end'}
      </div>
      <AudioPlayer url={url} />
      {!url ? <div className="muted">Connect an audio node to this one, then run it.</div> : null}
      <Chips items={[data.isExporting === true ? 'exporting' : undefined]} />
      <ErrorLine message={text(data.exportError)} />
    </CardShell>
  );
}
