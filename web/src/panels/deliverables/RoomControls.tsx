import type { HeldRoom, RoomController } from '../../model/review-room.js';

/**
 * The review room in Present's bar (docs/review.md, "The review room"): start presenting to everyone, end it; follow
 * whoever presents the board, step away (any move of one's own), rejoin, stop following; take a room over.
 */
export function RoomControls({
  controller,
  held,
  boardTitle,
  presenting,
  following,
  away,
  notice,
  onPresent,
  onStopFollowing,
}: {
  controller: RoomController;
  /** The room of the board shown (or followed), if there is one. */
  held: HeldRoom | undefined;
  boardTitle: string;
  presenting: boolean;
  following: boolean;
  away: boolean;
  notice: string | null;
  /** Starts presenting the board as Present shows it; takeOver: from whoever presents it now. */
  onPresent: (takeOver: boolean) => void;
  onStopFollowing: () => void;
}) {
  const name = held?.room.presenter.name;
  return (
    <span
      className="present-room"
      role="group"
      aria-label="Review room"
      data-room={presenting ? 'presenting' : following ? (away ? 'away' : 'following') : held ? 'open' : 'none'}
    >
      {presenting ? (
        <>
          <span className="present-room-state">Presenting {boardTitle} to everyone</span>
          <button type="button" onClick={() => controller.endPresenting()}>
            End for everyone
          </button>
        </>
      ) : held && name ? (
        <>
          <span className="present-room-state">
            {name} is presenting {boardTitle}
            {following ? (away ? ': you are browsing on your own' : ': following') : ''}
          </span>
          {following ? (
            <>
              {away ? (
                <button type="button" className="button-primary" onClick={() => controller.rejoin()}>
                  Rejoin
                </button>
              ) : null}
              <button type="button" onClick={onStopFollowing}>
                Stop following
              </button>
            </>
          ) : (
            <button type="button" onClick={() => controller.follow(held.room.board_node_id)}>
              Follow
            </button>
          )}
          {controller.canPresent ? (
            <button type="button" onClick={() => onPresent(true)} title={`Lead the room instead of ${name}`}>
              Take over
            </button>
          ) : null}
        </>
      ) : controller.canPresent ? (
        <button
          type="button"
          onClick={() => onPresent(false)}
          title="Everyone who follows sees the shots you show, play and pause: members on the canvas, guests of a review link"
        >
          Present to everyone
        </button>
      ) : null}
      {notice ? (
        <span className="present-room-notice" role="status">
          {notice}
        </span>
      ) : null}
    </span>
  );
}
