import type { PresenceUpdateBody } from '../../../src/contract/index.js';
import type { CanvasController } from './canvas-state.js';

/**
 * The person's own place on a canvas, reported (docs/ui.md, "Who else is here"): at most every 100 ms while it
 * changes, repeated every 10 s so it does not expire, and withdrawn when the page goes away or stops reporting. The
 * canvas reports its selection and cursor; a board page the board it shows.
 */

const REPORT_MS = 100;
const HEARTBEAT_MS = 10_000;

type Report = Pick<PresenceUpdateBody, 'selection' | 'cursor'>;

export interface PresenceReporter {
  /** A change of place: sent within 100 ms, or at once with `now`. */
  update(change: Partial<Report>, now?: boolean): void;
  /** The person left: withdrawn at once, and nothing more is sent. */
  stop(): void;
}

export function presenceReporter(
  controller: Pick<CanvasController, 'reportPresence'>,
  first: Report,
): PresenceReporter {
  let last = first;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const send = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    controller.reportPresence(last);
  };
  const leave = () => controller.reportPresence(null);
  const heartbeat = setInterval(send, HEARTBEAT_MS);
  window.addEventListener('pagehide', leave);
  send();
  return {
    update(change, now = false) {
      last = { ...last, ...change };
      if (now) send();
      else timer ??= setTimeout(send, REPORT_MS);
    },
    stop() {
      clearInterval(heartbeat);
      if (timer) clearTimeout(timer);
      timer = null;
      window.removeEventListener('pagehide', leave);
      leave();
    },
  };
}
