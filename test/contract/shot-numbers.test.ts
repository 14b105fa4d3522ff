import { describe, expect, it } from 'vitest';
import { numberShots } from '../../src/contract/shot-numbers.js';
import { StoryboardNodeData } from '../../src/contract/index.js';

const numbers = (shots: Array<{ number?: string }>) => shots.map((shot) => shot.number);

describe('shot numbers', () => {
  it('follow the order when the board is not locked, whatever they were', () => {
    expect(numbers(numberShots([{ number: '7' }, {}, { number: '2A' }], false))).toEqual(['1', '2', '3']);
  });

  it('give a shot inserted between 2 and 3 the number 2A under locked numbers, then 2B, and keep the rest', () => {
    const once = numberShots([{ number: '1' }, { number: '2' }, {}, { number: '3' }], true);
    expect(numbers(once)).toEqual(['1', '2', '2A', '3']);
    const twice = numberShots([...once.slice(0, 3), {}, once[3]!], true);
    expect(numbers(twice)).toEqual(['1', '2', '2A', '2B', '3']);
  });

  it('skips a letter in use and goes on to two letters after Z', () => {
    expect(numbers(numberShots([{ number: '4' }, {}, { number: '4A' }], true))).toEqual(['4', '4B', '4A']);
    expect(numbers(numberShots([{ number: '4Z' }, {}], true))).toEqual(['4Z', '4AA']);
  });

  it('numbers a shot put first on a locked board 0A', () => {
    expect(numbers(numberShots([{}, { number: '1' }], true))).toEqual(['0A', '1']);
  });

  it('keeps ids and fields, and accepts only numbers a board shows', () => {
    const shot = { id: 's1', imageUrl: null, scene: '3', shotSize: 'CU', lensMm: 50, status: 'for_review' };
    expect(numberShots([shot], false)[0]).toEqual({ ...shot, number: '1' });
    const board = (number: string) => StoryboardNodeData.safeParse({ frames: [{ ...shot, number }] }).success;
    expect([board('12'), board('2A'), board('2AB'), board('2a'), board('A2'), board('')]).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    const wrongSize = StoryboardNodeData.safeParse({ frames: [{ ...shot, shotSize: 'huge' }] });
    expect(wrongSize.success).toBe(false);
    expect(JSON.stringify(wrongSize.error?.issues[0]?.path)).toBe('["frames",0,"shotSize"]');
  });
});
