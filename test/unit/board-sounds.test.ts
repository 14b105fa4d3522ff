import { describe, expect, it } from 'vitest';
import { CanvasEdge, CanvasNode } from '../../src/contract/index.js';
import { boardSource, type BoardReadings } from '../../src/exports/board-source.js';

/**
 * The sounds an export plays (docs/deliverables.md, "Sources"): a sound card's file, else the sound of its latest
 * finished run (the templates' Voice-over card is run, not given a file); a sound card the board uses with neither is
 * named in the export's warnings instead of leaving a silent animatic unexplained.
 */

const RUN_SOUND = 'asset_RUNSOUNDAAAAAAAA';
const FILE_SOUND = 'asset_FILESOUNDAAAAAAA';

const board = CanvasNode.parse({
  id: 'board',
  type: 'storyboardNode',
  position: { x: 0, y: 0 },
  data: {
    title: 'Spot',
    frames: [
      { id: 's1', imageUrl: null, number: '1' },
      { id: 's2', imageUrl: null, number: '2' },
    ],
  },
});
const sound = (id: string, displayName: string, audioUrl: string | null) =>
  CanvasNode.parse({ id, type: 'audioNode', position: { x: 0, y: 600 }, data: { displayName, audioUrl } });

function readings(
  nodes: CanvasNode[],
  edges: CanvasEdge[] = [],
  latestSounds = new Map<string, string>(),
): BoardReadings {
  return {
    board,
    nodes: new Map([board, ...nodes].map((node) => [node.id, node])),
    edges,
    latestPictures: new Map(),
    latestSounds,
    projectName: 'Spot',
    canvasTitle: 'Main',
  };
}

describe('the sounds of an export', () => {
  it("plays a chosen sound card's latest run when the card holds no file (the template's Voice-over, once run)", () => {
    const source = boardSource(readings([sound('vo', 'Voice-over', null)], [], new Map([['vo', RUN_SOUND]])), {
      music_node_id: 'vo',
    });
    expect(source.musicAssetId).toBe(RUN_SOUND);
    expect(source.silentSounds).toEqual([]);
  });

  it("prefers the card's own file to its run's sound", () => {
    const source = boardSource(
      readings([sound('vo', 'Voice-over', `/assets/${FILE_SOUND}`)], [], new Map([['vo', RUN_SOUND]])),
      { music_node_id: 'vo' },
    );
    expect(source.musicAssetId).toBe(FILE_SOUND);
  });

  it('plays a voice-over connected to a shot from its run, and names a sound card with no sound in the warnings', () => {
    const edges = [
      CanvasEdge.parse({ id: 'e1', source: 'line-1', target: 'board', data: { shotId: 's1' } }),
      CanvasEdge.parse({ id: 'e2', source: 'line-2', target: 'board', data: { shotId: 's2' } }),
    ];
    const source = boardSource(
      readings(
        [sound('line-1', 'First line', null), sound('line-2', 'Second line', null)],
        edges,
        new Map([['line-1', RUN_SOUND]]),
      ),
      {},
    );
    expect(source.shots.map((shot) => shot.voiceOverAssetId)).toEqual([RUN_SOUND, null]);
    expect(source.silentSounds).toEqual([
      'The voice-over "Second line" has no sound yet (no file, no finished run): it is left out.',
    ]);
  });

  it('names the chosen music bed when it has no sound yet, rather than exporting silence without a word', () => {
    const source = boardSource(readings([sound('vo', 'Voice-over', null)]), { music_node_id: 'vo' });
    expect(source.musicAssetId).toBeNull();
    expect(source.silentSounds).toEqual([
      'The music bed "Voice-over" has no sound yet (no file, no finished run): it is left out.',
    ]);
  });
});
