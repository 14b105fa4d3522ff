import { describe, expect, it } from 'vitest';
import { PdfBoardOptions } from '../../src/contract/exports.js';
import { parseBoardView } from '../../src/shared/board-target.js';
import { aspectOf, cropInside, frameGuides, guidesSvg, isFrameShape } from '../../src/shared/frame-shape.js';

/**
 * Framing guides and frame shapes (src/shared/frame-shape.ts): the safe areas at the SMPTE ST 2046-1 fractions whatever
 * the frame's shape, the delivery crops at their share of a 16:9 master, custom W:H shapes read by the one parser, and
 * the guide options of the PDF and the board picture refused naming the field.
 */

const rectOf = (name: Parameters<typeof frameGuides>[0][number], aspect: number) =>
  frameGuides([name], aspect)[0]!.rects[0]!;

describe('frame guides', () => {
  for (const [label, aspect] of [
    ['16:9', 16 / 9],
    ['2.39:1', 2.39],
  ] as const) {
    it(`puts title safe at 90 % and action safe at 93 % of a ${label} frame, centred`, () => {
      const title = rectOf('titleSafe', aspect);
      expect(title.x).toBeCloseTo(0.05, 10);
      expect(title.y).toBeCloseTo(0.05, 10);
      expect(title.width).toBeCloseTo(0.9, 10);
      expect(title.height).toBeCloseTo(0.9, 10);
      const action = rectOf('actionSafe', aspect);
      expect(action.x).toBeCloseTo(0.035, 10);
      expect(action.y).toBeCloseTo(0.035, 10);
      expect(action.width).toBeCloseTo(0.93, 10);
      expect(action.height).toBeCloseTo(0.93, 10);
    });
  }

  it('makes the 9:16 crop of a 16:9 master 31.6 % of its width, full height, centred; 4:5 is 45 %', () => {
    const vertical = rectOf('crop9x16', 16 / 9);
    expect(vertical.width).toBeCloseTo(0.3164, 4);
    expect(vertical.height).toBe(1);
    expect(vertical.x + vertical.width / 2).toBeCloseTo(0.5, 10);
    expect(rectOf('crop4x5', 16 / 9).width).toBeCloseTo(0.45, 10);
    // A crop wider than the frame keeps its width and loses height: 16:9 inside a 9:16 frame.
    expect(cropInside(9 / 16, 16 / 9)).toMatchObject({ x: 0, width: 1 });
    expect(cropInside(9 / 16, 16 / 9).height).toBeCloseTo(0.3164, 4);
  });

  it('draws thirds at 1/3 and 2/3 and a centre cross that is square on screen', () => {
    const thirds = frameGuides(['thirds'], 16 / 9)[0]!.lines;
    expect(thirds.map((line) => line.from)).toEqual([
      [1 / 3, 0],
      [0, 1 / 3],
      [2 / 3, 0],
      [0, 2 / 3],
    ]);
    const [across, down] = frameGuides(['centre'], 2)[0]!.lines;
    // 6 % of the height tall, and as many pixels wide: 3 % of the width on a 2:1 frame.
    expect((across!.to[0] - across!.from[0]) * 2).toBeCloseTo(down!.to[1] - down!.from[1], 10);
  });

  it('writes a guide as SVG at its fraction of the frame in pixels', () => {
    const svg = guidesSvg(frameGuides(['titleSafe'], 16 / 9), 1600, 900);
    expect(svg).toContain('data-guide="titleSafe" x="80" y="45" width="1440" height="810"');
  });
});

describe('frame shapes', () => {
  it('reads presets and custom W:H alike, and anything else as 16:9', () => {
    expect(aspectOf('1.43:1')).toBeCloseTo(1.43, 10);
    expect(aspectOf('5:4')).toBe(1.25);
    expect(aspectOf('2.39:1')).toBe(2.39);
    expect(aspectOf(' 9:16 ')).toBe(9 / 16);
    for (const bad of ['wide', '16/9', '0:1', '1:0', '10:1', '-4:3', '', null, 16 / 9])
      expect(aspectOf(bad)).toBe(16 / 9);
  });

  it('takes exactly the custom shapes it can read', () => {
    for (const good of ['1.43:1', '5:4', '2:1', '1:4.9']) expect(isFrameShape(good)).toBe(true);
    for (const bad of ['5x4', '1.43', ':', '0:0', '6:1', '1:5', '12345:1', '1.1234:1', 'a:b'])
      expect(isFrameShape(bad)).toBe(false);
  });
});

describe('guide options', () => {
  it('defaults the PDF to no guides and refuses an unknown one naming the field', () => {
    expect(PdfBoardOptions.parse({}).guides).toEqual([]);
    expect(PdfBoardOptions.parse({ guides: ['titleSafe', 'crop9x16'] }).guides).toEqual(['titleSafe', 'crop9x16']);
    const refused = PdfBoardOptions.safeParse({ guides: ['tv'] });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues[0]!.path).toEqual(['guides', 0]);
  });

  it("reads the board picture's guides from its query, only with a node, refusing an unknown name", () => {
    const query = (text: string) => new URLSearchParams(text);
    expect(parseBoardView(query('node_id=board&guides=titleSafe,actionSafe,titleSafe'))).toEqual({
      target: { kind: 'node', nodeId: 'board' },
      format: 'png',
      guides: ['titleSafe', 'actionSafe'],
    });
    expect(() => parseBoardView(query('node_id=board&guides=safe'))).toThrow(/guides: safe is not a guide/);
    expect(() => parseBoardView(query('guides=titleSafe'))).toThrow(/node_id/);
  });
});
