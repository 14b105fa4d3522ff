import { useId, useRef, useState } from 'react';
import type { CommentAnchor, FrameRate, ShotMark, ThreadView } from '../../../src/contract/index.js';
import { frameAtMs } from '../../../src/shared/timecode.js';
import { TimedMarks } from '../cards/review-marks.js';
import { filmTimecode } from '../model/review.js';
import { onTransportKey } from '../model/transport-keys.js';
import { MarkupPad } from '../panels/review/MarkupPad.js';
import { startAsGuest, type Guest } from './SharedReview.js';

/**
 * A review link's animatic (docs/review.md, "The client's view"): the player with its timecode at the animatic's
 * frame rate, the editors' keys (, . J K L), the open notes along a strip under it (a range as a span), and for a
 * guest who comments: mark in and out at the frame shown, draw on that frame, and leave the note on the board.
 */
export function SharedAnimatic({
  url,
  rate,
  aspect,
  title,
  threads,
  writer,
}: {
  url: string;
  rate: FrameRate;
  aspect: number;
  title: string;
  /** The board's threads with a time in its animatic. */
  threads: readonly ThreadView[];
  /** Set when the guest may comment here. */
  writer: { secret: string; guest: Guest; nodeId: string; put(thread: ThreadView): void } | null;
}) {
  const id = useId();
  const video = useRef<HTMLVideoElement>(null);
  const [frame, setFrame] = useState(0);
  const [duration, setDuration] = useState(0);
  const [inFrame, setInFrame] = useState<number | null>(null);
  const [outFrame, setOutFrame] = useState<number | null>(null);
  const [body, setBody] = useState('');
  const [markup, setMarkup] = useState<ShotMark[]>([]);
  const [still, setStill] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const shown = () => frameAtMs((video.current?.currentTime ?? 0) * 1000, rate);
  const follow = () => setFrame(shown());
  const seek = (seconds: number) => {
    if (!video.current) return;
    video.current.pause();
    video.current.currentTime = seconds;
  };
  /** The frame on screen, as a picture to draw on (the film is this site's own, so the canvas can read it). */
  const drawOnFrame = () => {
    const player = video.current;
    if (!player) return;
    player.pause();
    const canvas = document.createElement('canvas');
    canvas.width = player.videoWidth || 1280;
    canvas.height = player.videoHeight || Math.round(1280 / aspect);
    canvas.getContext('2d')?.drawImage(player, 0, 0, canvas.width, canvas.height);
    setStill(canvas.toDataURL('image/jpeg', 0.85));
    if (inFrame === null) setInFrame(shown());
  };
  const send = async () => {
    if (!writer) return;
    const first = inFrame ?? shown();
    if (outFrame !== null && outFrame < first) {
      setProblem('The out point is before the in point: mark them again.');
      return;
    }
    const anchor: CommentAnchor = {
      on: 'animatic',
      frame: first,
      rate,
      ...(outFrame !== null && outFrame > first ? { frame_out: outFrame } : {}),
    };
    const failure = await startAsGuest(writer.secret, writer.guest, writer.put, {
      node_id: writer.nodeId,
      shot_id: null,
      anchor,
      body: body.trim(),
      ...(markup.length > 0 ? { markup } : {}),
    });
    setProblem(failure);
    if (failure) return;
    setBody('');
    setMarkup([]);
    setStill(null);
    setInFrame(null);
    setOutFrame(null);
  };

  return (
    <section className="shared-animatic" aria-label={`Animatic of ${title}`}>
      <video
        ref={video}
        src={url}
        controls
        playsInline
        preload="metadata"
        aria-label={`Animatic of ${title}: , and . step a frame, J K L play`}
        aria-describedby={`${id}-time`}
        onKeyDown={(event) => onTransportKey(event, rate)}
        onTimeUpdate={follow}
        onSeeked={follow}
        onLoadedMetadata={(event) => setDuration(event.currentTarget.duration)}
      />
      <output id={`${id}-time`} className="shared-timecode" aria-live="off" aria-label="Timecode">
        {filmTimecode(frame, rate)}
      </output>
      <TimedMarks threads={threads} duration={duration} seek={seek} label="Notes along the animatic" />
      {writer ? (
        <form
          className="shared-animatic-note"
          aria-label="A note on the animatic"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <div className="markup-tools">
            <button type="button" className="button-small" onClick={() => setInFrame(shown())}>
              Mark in
            </button>
            <button type="button" className="button-small" onClick={() => setOutFrame(shown())}>
              Mark out
            </button>
            <button type="button" className="button-small" onClick={drawOnFrame}>
              Draw on this frame
            </button>
            {inFrame !== null || outFrame !== null ? (
              <button
                type="button"
                className="button-small"
                onClick={() => (setInFrame(null), setOutFrame(null), setStill(null), setMarkup([]))}
              >
                Clear
              </button>
            ) : null}
          </div>
          <p className="muted" data-range>
            {inFrame === null
              ? `At the frame shown (${filmTimecode(frame, rate)})`
              : `From ${filmTimecode(inFrame, rate)}${outFrame !== null ? ` to ${filmTimecode(outFrame, rate)}` : ''}`}
            {' · '}
            {rate === '29.97' ? '29.97 fps drop frame' : `${rate} fps`}
          </p>
          {still ? <MarkupPad picture={still} aspect={aspect} marks={markup} onChange={setMarkup} /> : null}
          <label className="visually-hidden" htmlFor={`${id}-body`}>
            Note on the animatic
          </label>
          <textarea
            id={`${id}-body`}
            rows={2}
            placeholder="A note on the animatic…"
            value={body}
            onChange={(event) => setBody(event.target.value)}
          />
          <button type="submit" className="button-small button-primary" disabled={!body.trim()}>
            Leave the note
          </button>
          {problem ? <p className="error-line">{problem}</p> : null}
        </form>
      ) : null}
    </section>
  );
}
