import { CanvasNode, numberShots, type CanvasEdge } from '../../contract/index.js';

/**
 * The built-in templates (docs/storyboards.md, "Templates"): what a storyboard team starts a film, a commercial, a
 * vertical social spot or an animation from. Each is a board of empty shots in the format's frame shape (with the
 * spot's running time split over its shots), and what the format needs beside it: a voice-over track for a commercial,
 * a note saying how to begin. Built in code, so every server has them and nothing is stored until a canvas is made from
 * one.
 */

export interface BuiltinTemplate {
  id: string;
  title: string;
  description: string;
  layout(): { nodes: CanvasNode[]; edges: CanvasEdge[] };
}

interface Format {
  aspectRatio: string;
  shots: number;
  shotMs: number;
  voiceOver: boolean;
  note: string;
}

function board(title: string, format: Format): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const frames = numberShots(
    Array.from({ length: format.shots }, (_, index) => ({
      id: `shot-${index + 1}`,
      imageUrl: null,
      durationMs: format.shotMs,
      status: 'draft' as const,
    })),
    false,
  );
  const nodes = [
    {
      id: 'board',
      type: 'storyboardNode',
      position: { x: 0, y: 0 },
      data: { displayName: title, title, aspectRatio: format.aspectRatio, columns: 4, frames },
    },
    {
      id: 'start-here',
      type: 'textAnnotationNode',
      position: { x: 0, y: -180 },
      data: { displayName: 'Start here', content: format.note },
    },
    ...(format.voiceOver
      ? [
          {
            id: 'voice-over',
            type: 'audioNode',
            position: { x: 0, y: 520 },
            data: {
              displayName: 'Voice-over',
              audioUrl: null,
              audioKind: 'speech',
              text: '',
              durationMs: format.shots * format.shotMs,
            },
          },
        ]
      : []),
  ];
  return { nodes: nodes.map((node) => CanvasNode.parse(node)), edges: [] };
}

const IMPORT = 'Import the script from the shot list (Fountain or Final Draft) to get a shot per scene';

function template(id: string, title: string, description: string, format: Format): BuiltinTemplate {
  return { id, title, description, layout: () => board(title, format) };
}

export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  template('film-16x9', 'Film, 16:9', 'A board of 12 shots in 16:9, ready for a script.', {
    aspectRatio: '16:9',
    shots: 12,
    shotMs: 4000,
    voiceOver: false,
    note: `${IMPORT}, or drop your own frames on the canvas.`,
  }),
  template('film-scope', 'Film, 2.39:1 scope', 'A board of 12 shots in anamorphic scope, ready for a script.', {
    aspectRatio: '2.39:1',
    shots: 12,
    shotMs: 4000,
    voiceOver: false,
    note: `${IMPORT}, or drop your own frames on the canvas.`,
  }),
  template('commercial-30', 'Commercial, 30 s', 'Ten 3-second shots in 16:9 and a voice-over track of 30 seconds.', {
    aspectRatio: '16:9',
    shots: 10,
    shotMs: 3000,
    voiceOver: true,
    note: 'Thirty seconds: ten shots of three. Write the voice-over on its card; drop references and the product shots.',
  }),
  template('commercial-60', 'Commercial, 60 s', 'Twelve 5-second shots in 16:9 and a voice-over track of 60 seconds.', {
    aspectRatio: '16:9',
    shots: 12,
    shotMs: 5000,
    voiceOver: true,
    note: 'Sixty seconds: twelve shots of five. Write the voice-over on its card; drop references and the product shots.',
  }),
  template('vertical-social', 'Vertical social, 9:16', 'Six 2.5-second shots in 9:16 for a 15-second story.', {
    aspectRatio: '9:16',
    shots: 6,
    shotMs: 2500,
    voiceOver: false,
    note: 'Fifteen seconds, vertical: hook in the first shot, the product by the third.',
  }),
  template('animation', 'Animation', 'Twenty-four 2-second shots in 16:9, numbers locked for an animatic.', {
    aspectRatio: '16:9',
    shots: 24,
    shotMs: 2000,
    voiceOver: false,
    note: `${IMPORT}. Numbers are as in the animatic; lock them in the shot list once the board is shared.`,
  }),
];

export function builtinTemplate(id: string): BuiltinTemplate | undefined {
  return BUILTIN_TEMPLATES.find((template) => template.id === id);
}
