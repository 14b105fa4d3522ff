import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CanvasNode, StoryboardNodeData, type LayoutOperation } from '../../src/contract/index.js';
import { planScriptImport } from '../../src/storyboard/screenplay/board-from-script.js';
import { readScript } from '../../src/storyboard/screenplay/read-script.js';
import { buildScreenplay } from '../../src/storyboard/screenplay/screenplay.js';
import { builtinTemplate } from '../../src/storyboard/templates/builtin.js';

/**
 * How an imported script lands on a board, without a server: an import into a template fills its empty shots first, in
 * board order, and adds shots only for the scenes left; the cue's extension ((V.O.), (O.S.), (CONT'D), (O.C.)) is kept
 * with the line and in the shot's dialogue, while the cast stays the name alone.
 */

const fixture = (name: string) => readFileSync(new URL(`../fixtures/scripts/${name}`, import.meta.url), 'utf8');

const FOUR_SCENES = `Title: Morning Run

INT. KITCHEN - DAWN

ANA pours coffee.

ANA (V.O.)
Every morning starts the same.

EXT. STREET - DAWN

She runs. A dog follows.

TOM (O.S.)
Wait for me!

ANA (CONT'D)
Keep up.

EXT. PARK - MORNING

The sun breaks through.

TOM (O.C.) (CONT'D)
Made it.

EXT. BRIDGE - MORNING

Ana and Tom stop, out of breath. The logo.
`;

type Frame = Record<string, unknown> & { id: string };

function imported(fileName: string, text: string, board: CanvasNode | null) {
  const { source, read } = readScript(fileName, text);
  const screenplay = buildScreenplay(read, source, fileName, 1, board?.id ?? 'board');
  let next = 0;
  const plan = planScriptImport({
    screenplay,
    previous: null,
    scriptNode: null,
    scriptNodeId: 'script',
    board,
    boardNodeId: board?.id ?? 'board',
    position: { x: 0, y: 0 },
    newShotId: () => `new-${(next += 1)}`,
  });
  const boardWrite = plan.operations[1] as LayoutOperation & { set?: { data: unknown }; node?: CanvasNode };
  const data = StoryboardNodeData.parse(boardWrite.set?.data ?? boardWrite.node?.data);
  return { plan, frames: data.frames as Frame[] };
}

describe('a script imported into a board', () => {
  it("fills the commercial template's ten empty shots first, in board order, and adds none", () => {
    const template = builtinTemplate('commercial-30')!;
    const board = template.layout().nodes.find((node) => node.type === 'storyboardNode')!;
    const { plan, frames } = imported('morning.fountain', FOUR_SCENES, board);
    expect(frames).toHaveLength(10);
    expect(frames.map((frame) => frame.id)).toEqual(Array.from({ length: 10 }, (_, index) => `shot-${index + 1}`));
    expect(frames.slice(0, 4).map((frame) => frame.caption)).toEqual([
      'INT. KITCHEN - DAWN',
      'EXT. STREET - DAWN',
      'EXT. PARK - MORNING',
      'EXT. BRIDGE - MORNING',
    ]);
    // A filled shot keeps what the template gave it (its number, its 3 s, its status) and takes the scene's words.
    expect(frames[0]).toMatchObject({ id: 'shot-1', number: '1', durationMs: 3000, status: 'draft', scene: '1' });
    expect(frames.slice(4).every((frame) => frame.caption === undefined)).toBe(true);
    expect(plan.shotsAdded).toBe(0);
    expect(plan.shotsFilled).toBe(4);
    expect(Object.keys(plan.screenplay.bindings)).toEqual(['shot-1', 'shot-2', 'shot-3', 'shot-4']);
  });

  it('adds shots after the last one for the scenes the empty shots could not hold, and leaves a worked shot alone', () => {
    const board = CanvasNode.parse({
      id: 'board',
      type: 'storyboardNode',
      position: { x: 0, y: 0 },
      data: {
        frames: [
          { id: 'drawn', imageUrl: '/assets/asset_aaaaaaaaaaaaaaaa' },
          { id: 'empty-1', imageUrl: null, durationMs: 2000 },
          { id: 'noted', imageUrl: null, notes: 'the hero shot' },
          { id: 'empty-2', imageUrl: null, status: 'draft' },
        ],
      },
    });
    const { plan, frames } = imported('morning.fountain', FOUR_SCENES, board);
    expect(frames.map((frame) => [frame.id, frame.caption ?? null])).toEqual([
      ['drawn', null],
      ['empty-1', 'INT. KITCHEN - DAWN'],
      ['noted', null],
      ['empty-2', 'EXT. STREET - DAWN'],
      ['new-1', 'EXT. PARK - MORNING'],
      ['new-2', 'EXT. BRIDGE - MORNING'],
    ]);
    expect([plan.shotsFilled, plan.shotsAdded]).toEqual([2, 2]);
  });

  it("keeps a cue's extension with its line and in the shot's dialogue; the cast is the name alone", () => {
    const { plan, frames } = imported('morning.fountain', FOUR_SCENES, null);
    const lines = plan.screenplay.scenes.flatMap((scene) => scene.lines.filter((line) => line.kind === 'dialogue'));
    expect(lines.map((line) => [line.character, line.extension ?? null])).toEqual([
      ['ANA', '(V.O.)'],
      ['TOM', '(O.S.)'],
      ['ANA', "(CONT'D)"],
      ['TOM', "(O.C.) (CONT'D)"],
    ]);
    expect(plan.screenplay.characters).toEqual(['ANA', 'TOM']);
    expect(frames[0]!.dialogue).toBe('ANA (V.O.): Every morning starts the same.');
    expect(frames[1]!.dialogue).toBe("TOM (O.S.): Wait for me!\nANA (CONT'D): Keep up.");
    expect(frames[2]!.dialogue).toBe("TOM (O.C.) (CONT'D): Made it.");
    expect(frames[1]!.cast).toEqual(['TOM', 'ANA']);
  });

  it('keeps the extension from a Final Draft file too, and a line without one keeps the id it always had', () => {
    const { plan } = imported('lighthouse.fdx', fixture('lighthouse.fdx'), null);
    const ode = plan.screenplay.scenes[0]!.lines.find((line) => line.character === 'ODE')!;
    expect(ode.extension).toBe('(V.O.)');
    const plain = imported('lighthouse.fountain', fixture('lighthouse.fountain'), null).plan.screenplay;
    const mara = plain.scenes[0]!.lines.find((line) => line.character === 'MARA')!;
    // Written before extensions were kept: the same id, so a revised script does not flag it.
    expect(mara.extension).toBeUndefined();
    expect(mara.id).toMatch(/^ln-/);
  });
});
