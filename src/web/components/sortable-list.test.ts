import { describe, expect, it } from 'vitest';
import { keyboardCoordinates, KEYBOARD_STEP_PX, moveSpeech, type TMoveSpeech } from './sortable-list';

describe('keyboard dragging', () => {
  const move = (code: string) =>
    keyboardCoordinates({ code } as KeyboardEvent, {
      active: 'a',
      currentCoordinates: { x: 100, y: 200 },
      context: {} as never,
    });

  it('moves 25 px per arrow key press (decision 045), for the questions and the wall alike', () => {
    expect(KEYBOARD_STEP_PX).toBe(25);
    expect(move('ArrowDown')).toEqual({ x: 100, y: 225 });
    expect(move('ArrowUp')).toEqual({ x: 100, y: 175 });
    expect(move('ArrowRight')).toEqual({ x: 125, y: 200 });
    expect(move('ArrowLeft')).toEqual({ x: 75, y: 200 });
    expect(move('KeyA')).toBeUndefined();
  });
});

describe('what a move says (decision 174)', () => {
  const say = (key: string, v: { position: number; target: number; count: number }) => `${key} ${v.position}→${v.target}/${v.count}`;
  const start: TMoveSpeech = { press: 0, target: 1, text: 'picked up' };

  it('says each arrow-key press, with the landing place', () => {
    const first = moveSpeech(start, { presses: 1, position: 1, target: 1, count: 3 }, say);
    expect(first).toEqual({ press: 1, target: 1, text: 'stay 1→1/3' });
    const second = moveSpeech(first!, { presses: 2, position: 1, target: 2, count: 3 }, say);
    expect(second).toEqual({ press: 2, target: 2, text: 'land 1→2/3' });
  });

  it('says "still" when a press does not change the place, so that the live region changes', () => {
    const first = moveSpeech(start, { presses: 1, position: 1, target: 1, count: 3 }, say)!;
    expect(moveSpeech(first, { presses: 2, position: 1, target: 1, count: 3 }, say)?.text).toBe('still 1→1/3');
  });

  it('stays quiet on a pointer move that keeps the place, and speaks when it changes', () => {
    expect(moveSpeech(start, { presses: 0, position: 1, target: 1, count: 3 }, say)).toBeNull();
    expect(moveSpeech(start, { presses: 0, position: 1, target: 3, count: 3 }, say)?.text).toBe('land 1→3/3');
  });
});
