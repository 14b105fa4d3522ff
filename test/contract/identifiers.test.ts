import { describe, expect, it } from 'vitest';
import {
  CreateCanvasNodeArgs,
  DeleteCanvasNodeArgs,
  GetCanvasArgs,
  NodeRunArgs,
  describeResourceIdViolation,
} from '../../src/contract/index.js';
import { accept, expectVerdict, refuse, type Case } from '../support/dual-validator.js';
import { node } from '../support/node-fixtures.js';

const FORBIDDEN_CHARACTERS = [
  '/',
  '\\',
  '?',
  '#',
  '%',
  ' ',
  '\u0000',
  '\u0009',
  '\u000a',
  '\u001f',
  '\u0020',
  '\u007f',
];

/** Cases for any identifier that shares the project_id rule, placed into a field by `wrap`. */
function resourceIdCases(): Case[] {
  return [
    accept('1 character', 'p'),
    accept('255 characters', 'p'.repeat(255)),
    accept(
      '255 code points of astral characters (510 UTF-16 units): length counts code points',
      '\u{1F3AC}'.repeat(255),
    ),
    accept("a dot inside ('a.b')", 'a.b'),
    accept("three dots ('...')", '...'),
    accept('unicode letters', 'projet-été'),
    accept('0x80 (first character above the forbidden range)', 'a\u0080b'),
    refuse('empty string', ''),
    refuse('256 characters', 'p'.repeat(256)),
    refuse('256 astral code points', '\u{1F3AC}'.repeat(256)),
    refuse("exactly '.'", '.'),
    refuse("exactly '..'", '..'),
    refuse('a number instead of a string', 42),
    refuse('null', null),
    // Not well-formed Unicode: the stores would not tell "a\ud800" and "a\udbff" apart.
    refuse('an unpaired high surrogate', 'a\ud800'),
    refuse('an unpaired low surrogate', 'a\udc00b'),
    refuse('a low surrogate before a high one (reversed pair)', '\udc00\ud800'),
    ...FORBIDDEN_CHARACTERS.map((character) =>
      refuse(`contains U+${character.codePointAt(0)!.toString(16).padStart(4, '0')}`, `a${character}b`),
    ),
  ];
}

const base = { project_id: 'demo', canvas_id: 'main' };

describe('identifier rules (spec: Identifier constraints)', () => {
  describe.each([
    ['project_id', (value: unknown) => [GetCanvasArgs, { ...base, project_id: value }] as const],
    ['node_id', (value: unknown) => [DeleteCanvasNodeArgs, { ...base, node_id: value, base_revision: 0 }] as const],
    ['run_id', (value: unknown) => [NodeRunArgs, { ...base, run_id: value }] as const],
    [
      'node.id',
      (value: unknown) =>
        [CreateCanvasNodeArgs, { ...base, base_revision: 0, node: { ...node('groupNode'), id: value } }] as const,
    ],
    [
      'parentId',
      (value: unknown) =>
        [
          CreateCanvasNodeArgs,
          { ...base, base_revision: 0, node: node('groupNode', undefined, { parentId: value }) },
        ] as const,
    ],
  ])('%s', (_field, place) => {
    it.each(resourceIdCases())('$name → valid: $valid', ({ value, valid }) => {
      const [schema, args] = place(value);
      expectVerdict(schema, args, valid);
    });
  });

  describe('canvas_id', () => {
    it.each([
      accept('1 character', 'c'),
      accept('64 characters', 'c'.repeat(64)),
      accept('letters, digits, underscore and hyphen', 'Main_Canvas-01'),
      refuse('empty string', ''),
      refuse('65 characters', 'c'.repeat(65)),
      refuse('a dot', 'main.v2'),
      refuse('a space', 'main canvas'),
      refuse('a slash', 'a/b'),
      refuse('a non-ASCII letter', 'café'),
      refuse('a number', 7),
    ])('$name → valid: $valid', ({ value, valid }) => {
      expectVerdict(GetCanvasArgs, { ...base, canvas_id: value }, valid);
    });
  });

  describe('base_revision', () => {
    it.each([
      accept('0', 0),
      accept('a large integer', 1_000_000),
      accept('1.0 (an integer written with a fraction)', 1.0),
      refuse('-1', -1),
      refuse('1.5', 1.5),
      refuse('the string "1"', '1'),
      refuse('null', null),
    ])('$name → valid: $valid', ({ value, valid }) => {
      expectVerdict(DeleteCanvasNodeArgs, { ...base, node_id: 'n1', base_revision: value }, valid);
    });

    it('is required', () => {
      expectVerdict(DeleteCanvasNodeArgs, { ...base, node_id: 'n1' }, false);
    });
  });

  describe('client_save_id', () => {
    it.each([
      accept('null', null),
      accept('1 character', 's'),
      accept('128 characters', 's'.repeat(128)),
      accept('surrounding whitespace around one visible character', '  s  '),
      refuse('empty string', ''),
      refuse('only spaces', '   '),
      refuse('only tabs and newlines', '\t\n'),
      refuse('129 characters', 's'.repeat(129)),
      refuse('a number', 5),
      accept('U+0000 inside (stored by hash on every database)', 'a\u0000b'),
      accept('an astral character', '\u{1F3AC}'),
      refuse('an unpaired surrogate', 'save\ud800'),
    ])('$name → valid: $valid', ({ value, valid }) => {
      expectVerdict(DeleteCanvasNodeArgs, { ...base, node_id: 'n1', base_revision: 0, client_save_id: value }, valid);
    });

    it('defaults to null when omitted', () => {
      const parsed = DeleteCanvasNodeArgs.parse({ ...base, node_id: 'n1', base_revision: 3 });
      expect(parsed.client_save_id).toBeNull();
    });
  });

  describe('the reason given for a refused identifier', () => {
    it.each([
      ['', 'must not be empty'],
      ['x'.repeat(256), 'must be at most 255 characters (got 256)'],
      ['..', "must not be exactly '..'"],
      ['a/b', "must not contain '/'"],
      ['a b', 'must not contain a space (an id is one word: give a name with spaces as the title)'],
      ['a\u007fb', 'U+007F'],
      ['a\ud800', 'well-formed Unicode'],
    ])('%j → %s', (value, reason) => {
      expect(describeResourceIdViolation(value)).toContain(reason);
      const result = GetCanvasArgs.safeParse({ ...base, project_id: value });
      expect(result.error?.issues[0]?.message).toContain(reason);
    });
  });
});
