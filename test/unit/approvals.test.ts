import { describe, expect, it } from 'vitest';
import { answered, lastPersonText, pendingApprovals } from '../../src/agent/approvals.js';
import type { StoredChatMessage } from '../../src/contract/index.js';

/** The chat's approval bookkeeping (src/agent/approvals.ts): what waits, how answers are written in, what was asked. */

const waiting: StoredChatMessage = {
  id: 'msg_a',
  role: 'assistant',
  parts: [
    { type: 'text', text: 'I will run two frames.' },
    { type: 'dynamic-tool', state: 'approval-requested', approval: { id: 'ap_1' }, toolName: 'submit_canvas_node_run' },
    { type: 'dynamic-tool', state: 'approval-requested', approval: { id: 'ap_2' }, toolName: 'submit_canvas_node_run' },
    { type: 'dynamic-tool', state: 'output-available', toolName: 'get_canvas' },
  ],
};

describe('approvals in a transcript', () => {
  it('lists the approval requests a message still waits on, and none of a message without any', () => {
    expect(pendingApprovals(waiting)).toEqual(['ap_1', 'ap_2']);
    expect(pendingApprovals(undefined)).toEqual([]);
    expect(pendingApprovals({ id: 'm', role: 'user', parts: [{ type: 'text', text: 'hi' }] })).toEqual([]);
  });

  it('writes each answer into its request, with the reason when there is one, and leaves other parts as they were', () => {
    const continued = answered(waiting, [
      { approval_id: 'ap_1', approved: true },
      { approval_id: 'ap_2', approved: false, reason: 'Too expensive.' },
    ]);
    expect(continued.parts.slice(1, 3)).toEqual([
      expect.objectContaining({ state: 'approval-responded', approval: { id: 'ap_1', approved: true } }),
      expect.objectContaining({
        state: 'approval-responded',
        approval: { id: 'ap_2', approved: false, reason: 'Too expensive.' },
      }),
    ]);
    expect(continued.parts[0]).toBe(waiting.parts[0]);
    expect(continued.parts[3]).toBe(waiting.parts[3]);
    expect(pendingApprovals(continued)).toEqual([]);
  });

  it('an answer to an approval the message does not hold changes nothing', () => {
    const continued = answered(waiting, [{ approval_id: 'ap_9', approved: true }]);
    expect(pendingApprovals(continued)).toEqual(['ap_1', 'ap_2']);
  });

  it("finds the person's latest words, across the assistant's answers", () => {
    const history: StoredChatMessage[] = [
      { id: '1', role: 'user', parts: [{ type: 'text', text: 'First.' }] },
      { id: '2', role: 'assistant', parts: [{ type: 'text', text: 'Ok.' }] },
      {
        id: '3',
        role: 'user',
        parts: [
          { type: 'text', text: 'Compare with' },
          { type: 'text', text: 'the moodboard.' },
        ],
      },
      waiting,
    ];
    expect(lastPersonText(history)).toBe('Compare with\nthe moodboard.');
    expect(lastPersonText([waiting])).toBeNull();
  });
});
