import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/contract/index.js';
import { shotChanges } from '../../src/storyboard/shot-changes.js';
import { GROUP_WINDOW_MS, groupHistory, shotWords } from '../../web/src/model/history-groups.js';

const board = (frames: unknown[]) => ({ id: 'b', type: 'storyboardNode', position: { x: 0, y: 0 }, data: { frames } });
const ben = { kind: 'person' as const, issuer: 'idp', subject: 'ben' };
const ana = { kind: 'person' as const, issuer: 'idp', subject: 'ana' };

/** A revision of one field of shot s3, `minutes` after a start, by `author`. */
function edit(revision: number, minutes: number, field: string, author = ben): HistoryEntry {
  return {
    revision,
    author,
    at: new Date(Date.UTC(2026, 10, 28, 10, 0) + minutes * 60_000).toISOString(),
    operation: 'update_node',
    changes: [{ kind: 'node', id: 'b', change: 'update' }],
    shots: [{ node_id: 'b', shot_id: 's3', number: '3', change: 'update', fields: [field] }],
  };
}

describe('what a write did to a board’s shots', () => {
  it('names the shots added, removed and updated, and the fields an update changed (a renumbering too)', () => {
    const before = board([
      { id: 's1', number: '1', action: 'Fog' },
      { id: 's2', number: '2', lensMm: 35 },
      { id: 's3', number: '3' },
    ]);
    const after = board([
      { id: 's1', number: '1', action: 'Fog' },
      { id: 's3', number: '2', shotSize: 'CU' },
      { id: 's4', number: '3' },
    ]);
    expect(shotChanges('b', before, after)).toEqual([
      { node_id: 'b', shot_id: 's3', number: '2', change: 'update', fields: ['number', 'shotSize'] },
      { node_id: 'b', shot_id: 's4', number: '3', change: 'create', fields: [] },
      { node_id: 'b', shot_id: 's2', number: '2', change: 'delete', fields: [] },
    ]);
    expect(
      shotChanges('n', { type: 'textAnnotationNode', data: {} }, { type: 'textAnnotationNode', data: {} }),
    ).toEqual([]);
    expect(shotChanges('b', null, board([{ id: 's1' }]))).toEqual([
      { node_id: 'b', shot_id: 's1', number: null, change: 'create', fields: [] },
    ]);
  });
});

describe('History a person can read', () => {
  it('shows a person’s consecutive edits of one shot as one entry naming the fields, each revision kept', () => {
    // Newest first, as History lists them.
    const groups = groupHistory([edit(14, 4, 'dialogue'), edit(13, 3, 'lensMm'), edit(12, 1, 'shotSize')]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.entries.map((entry) => entry.revision)).toEqual([14, 13, 12]);
    expect(shotWords([groups[0]!.shot!], groups[0]!.fields)).toBe('edited shot 3: dialogue, lens, size');
  });

  it('keeps apart another person’s edit, another shot, and edits further apart than the window', () => {
    const otherShot: HistoryEntry = {
      ...edit(15, 5, 'action'),
      shots: [{ node_id: 'b', shot_id: 's4', number: '4', change: 'update', fields: ['action'] }],
    };
    const late = edit(10, -GROUP_WINDOW_MS / 60_000 - 2, 'caption');
    const groups = groupHistory([
      otherShot,
      edit(14, 4, 'dialogue'),
      edit(13, 3, 'lensMm', ana),
      edit(12, 1, 'notes'),
      late,
    ]);
    expect(groups.map((group) => group.entries.map((entry) => entry.revision))).toEqual([[15], [14], [13], [12], [10]]);
  });

  it('says what a single revision did to shots in words', () => {
    expect(shotWords([{ node_id: 'b', shot_id: 's9', number: '9', change: 'create', fields: [] }])).toBe(
      'added shot 9',
    );
    expect(
      shotWords([
        { node_id: 'b', shot_id: 's1', number: '1', change: 'update', fields: ['number'] },
        { node_id: 'b', shot_id: 's2', number: '2', change: 'update', fields: ['number'] },
        { node_id: 'b', shot_id: 's3', number: null, change: 'delete', fields: [] },
      ]),
    ).toBe('removed 1 shot, edited 2 shots');
  });
});
