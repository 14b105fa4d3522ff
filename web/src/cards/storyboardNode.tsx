import type { CSSProperties } from 'react';
import { useMediaOrigin } from '../canvas/context.js';
import { safeMediaUrl } from './media-url.js';
import { CardShell, type CardProps } from './parts.js';
import { dataOf, formatMs, list, num, text } from './values.js';

/** storyboardNode: its shots as a grid of thumbnails, each with its number, size and description. */
export function StoryboardNodeCard(card: CardProps) {
  const data = dataOf(card.data.node.data);
  const frames = list(data.frames).map(dataOf);
  const origin = useMediaOrigin();
  return (
    <CardShell card={card} className="card-wide">
      {frames.length === 0 ? <div className="media-empty">No frames yet</div> : null}
      <div
        className="frames"
        style={
          {
            gridTemplateColumns: `repeat(${Math.min(num(data.columns) ?? 3, 6)}, 1fr)`,
            '--frame-aspect': cssAspect(text(data.aspectRatio)),
          } as CSSProperties
        }
      >
        {frames.slice(0, 24).map((frame, index) => (
          <figure
            key={text(frame.id) ?? index}
            className={text(frame.status) === 'omitted' ? 'frame frame-omitted' : 'frame'}
          >
            {safeMediaUrl(text(frame.imageUrl), origin) ? (
              <img
                src={safeMediaUrl(text(frame.imageUrl), origin)}
                alt={text(frame.caption) ?? `frame ${index + 1}`}
                loading="lazy"
              />
            ) : (
              <div className="frame-empty">{text(frame.number) ?? index + 1}</div>
            )}
            <figcaption>
              <strong className="shot-label">{text(frame.number) ?? index + 1}</strong>{' '}
              {text(frame.shotSize) ? <span className="muted">{text(frame.shotSize)} </span> : null}
              {text(frame.caption) ?? text(frame.action) ?? text(frame.shotType) ?? ''}
              {formatMs(num(frame.durationMs)) ? (
                <span className="muted"> · {formatMs(num(frame.durationMs))}</span>
              ) : null}
            </figcaption>
          </figure>
        ))}
      </div>
      {frames.length > 24 ? <div className="muted">and {frames.length - 24} more frames</div> : null}
    </CardShell>
  );
}

/** The board's frame shape for CSS: 2.39:1 → 2.39 / 1; anything else leaves the 16:9 default. */
function cssAspect(ratio: string | undefined): string | undefined {
  const match = ratio ? /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(ratio) : null;
  return match ? `${match[1]} / ${match[2]}` : undefined;
}
