import { useCanvas, useCanvasState } from '../../ui/canvas-context.js';
import { setSoundRole, soundRole, type SoundRole } from '../../model/board-sound.js';
import { boardTitle } from '../../model/present.js';
import { boardOf } from '../../model/shots.js';
import { Select } from '../../ui/select.js';

/**
 * The board's sound: each sound card on the canvas laid under the animatic as the music bed, as a voice-over starting
 * on a shot, or not at all (its edge to the board; docs/deliverables.md, "Sources").
 */
export function BoardSound({ boardId }: { boardId: string }) {
  const { controller } = useCanvas();
  const layout = useCanvasState((state) => state.layout);
  const sounds = layout.nodes.filter((node) => node.type === 'audioNode');
  const board = layout.nodes.find((node) => node.id === boardId);
  const shots = board ? boardOf(board).shots : [];
  if (sounds.length === 0)
    return (
      <p className="muted">
        No sound on this canvas: upload a voice-over or a music track (it becomes an Audio card) to lay it under the
        animatic.
      </p>
    );
  const valueOf = (role: SoundRole) =>
    role.kind === 'voice' ? `voice:${role.shotId}` : role.kind === 'music' ? 'music' : 'none';
  const roleOf = (value: string): SoundRole =>
    value.startsWith('voice:')
      ? { kind: 'voice', shotId: value.slice('voice:'.length) }
      : value === 'music'
        ? { kind: 'music' }
        : { kind: 'none' };
  return (
    <fieldset className="board-sound">
      <legend>Sound under the animatic</legend>
      {sounds.map((sound) => (
        <label key={sound.id}>
          {boardTitle(sound)}
          <Select
            label={boardTitle(sound)}
            value={valueOf(soundRole(layout, boardId, sound.id))}
            onChange={(next) => void controller.submit(setSoundRole(boardId, sound.id, roleOf(next)))}
            options={[
              { value: 'none', label: 'Not used' },
              { value: 'music', label: 'Music bed (ducked under voices)' },
              ...shots.map((shot, index) => ({
                value: `voice:${shot.id}`,
                label: `Voice-over from shot ${shot.number ?? index + 1}`,
              })),
            ]}
          />
        </label>
      ))}
    </fieldset>
  );
}
