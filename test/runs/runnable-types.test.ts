import { describe, expect, it } from 'vitest';
import { CanvasNode, NODE_TYPES, RUNNABLE_NODE_TYPES, isRunnableNodeType } from '../../src/contract/index.js';
import { planRun, type RunContext } from '../../src/runs/operations.js';
import { MINIMAL_DATA } from '../support/node-fixtures.js';

/** The contract's list of runnable node types (which the web canvas shows Run on) is what planRun accepts. */

const RUNNABLE_DATA: Partial<Record<string, Record<string, unknown>>> = {
  videoStoryNode: { shots: [{ id: 's1', prompt: 'a wave', durationMs: 1000 }] },
  videoComposeNode: { clips: [{ id: 'c1', videoUrl: null, startMs: 0 }] },
};
const WITH_AUDIO: RunContext = { assetIdOf: () => null, sourceAudioAssetId: 'asset_0123456789abcdef' };

describe('runnable node types', () => {
  it.each(NODE_TYPES)('%s: runnable exactly when RUNNABLE_NODE_TYPES lists it', (type) => {
    const node = CanvasNode.parse({
      id: 'n',
      type,
      position: { x: 0, y: 0 },
      data: { ...MINIMAL_DATA[type], ...RUNNABLE_DATA[type] },
    });
    const plan = () => planRun(node, WITH_AUDIO);
    if (isRunnableNodeType(type)) expect(plan().operation).toBeTruthy();
    else expect(plan).toThrow(expect.objectContaining({ code: 'not_runnable' }));
  });

  it('lists only node types', () => {
    for (const type of RUNNABLE_NODE_TYPES) expect(NODE_TYPES).toContain(type);
  });
});
