import type { KeyboardCoordinateGetter } from '@dnd-kit/core';

/** Spec §9: a drag starts after 5 px of movement; the keyboard moves 25 px per key press. */
export const DRAG_ACTIVATION_DISTANCE = 5;
export const KEYBOARD_STEP_PX = 25;

/** Arrow keys move the dragged row by 25 px (Space or Enter picks it up and drops it, Escape cancels). */
export const keyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  switch (event.code) {
    case 'ArrowDown':
      return { ...currentCoordinates, y: currentCoordinates.y + KEYBOARD_STEP_PX };
    case 'ArrowUp':
      return { ...currentCoordinates, y: currentCoordinates.y - KEYBOARD_STEP_PX };
    case 'ArrowRight':
      return { ...currentCoordinates, x: currentCoordinates.x + KEYBOARD_STEP_PX };
    case 'ArrowLeft':
      return { ...currentCoordinates, x: currentCoordinates.x - KEYBOARD_STEP_PX };
    default:
      return undefined;
  }
};
