import type { KeyboardEvent } from 'react';
import type { FrameRate } from '../../../src/contract/index.js';
import { frameAtMs, msOfFrame } from '../../../src/shared/timecode.js';

/**
 * The keys editors' players share, on any <video> of the page (docs/review.md, "Frames"): , and . step one frame back
 * and forward (pausing), K stops, L plays and each L again doubles the speed (up to 8×), J goes back a second a press
 * (browsers do not play video backwards). A step lands on the start of the frame, so the frame named in a comment is
 * the picture shown.
 */

const FASTEST = 8;

export function onTransportKey(event: KeyboardEvent<HTMLVideoElement>, rate: FrameRate = '24'): void {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const video = event.currentTarget;
  const stepTo = (frame: number) => {
    video.pause();
    video.currentTime = Math.max(0, msOfFrame(Math.max(0, frame), rate) / 1000);
  };
  const frame = frameAtMs(video.currentTime * 1000, rate);
  switch (event.key) {
    case ',':
      stepTo(frame - 1);
      break;
    case '.':
      stepTo(frame + 1);
      break;
    case 'k':
    case 'K':
      video.pause();
      video.playbackRate = 1;
      break;
    case 'l':
    case 'L':
      if (video.paused) {
        video.playbackRate = 1;
        void video.play().catch(() => undefined);
      } else video.playbackRate = Math.min(FASTEST, video.playbackRate * 2);
      break;
    case 'j':
    case 'J':
      video.pause();
      video.currentTime = Math.max(0, video.currentTime - 1);
      break;
    default:
      return;
  }
  event.preventDefault();
}
