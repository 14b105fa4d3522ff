export { signalsThroughBus } from './bus-driver.js';
export { openNatsBus, redactBusUrl, type FeedBus, type FeedBusStats } from './nats-bus.js';
export {
  canvasSubject,
  REVIEW_ROOM_CHANNEL,
  SIGNAL_KINDS,
  type CanvasSignalKind,
  type SignalKind,
} from './subjects.js';
