import type { RoomController } from '../../model/review-room.js';
import { useRoomData } from '../../model/review-room.js';

/**
 * The review room's banner on a page (docs/review.md, "The review room"): each room someone else presents, as
 * "<name> is presenting <board>: Follow" (Stop following once followed), on the canvas for members and on a review
 * link's page for its guests. Following opens Present at the presenter's shot.
 */
export function RoomBanner({
  controller,
  titleOf,
  onFollow,
}: {
  controller: RoomController;
  /** The board's title as the page names it; null: a board this page does not show. */
  titleOf: (board: string) => string | null;
  onFollow: (board: string) => void;
}) {
  const rooms = useRoomData(controller, (data) => data.rooms);
  const following = useRoomData(controller, (data) => data.following);
  const notice = useRoomData(controller, (data) => data.notice);
  const led = Object.values(rooms).filter(
    (held) => !controller.isMine(held.room) && titleOf(held.room.board_node_id) !== null,
  );
  if (led.length === 0 && !notice) return null;
  return (
    <div className="room-banner" role="region" aria-label="Review room">
      {led.map(({ room }) => (
        <p key={room.board_node_id} className="room-banner-line" data-room-board={room.board_node_id}>
          <span>
            <strong>{room.presenter.name}</strong> is presenting <strong>{titleOf(room.board_node_id)}</strong>
          </span>
          {following === room.board_node_id ? (
            <button type="button" className="button-small" onClick={() => controller.stopFollowing()}>
              Stop following
            </button>
          ) : (
            <button type="button" className="button-small button-primary" onClick={() => onFollow(room.board_node_id)}>
              Follow
            </button>
          )}
        </p>
      ))}
      {notice && following === null ? (
        <p className="room-banner-line muted">
          <span>{notice}</span>
          <button type="button" className="button-small" onClick={() => controller.dismissNotice()}>
            Dismiss
          </button>
        </p>
      ) : null}
    </div>
  );
}
