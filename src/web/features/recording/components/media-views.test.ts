import { describe, expect, it } from 'vitest';
import { aspectOf, cameraBoxStyle, DEFAULT_CAMERA_ASPECT, trackAspect } from './media-views';

describe('the camera preview box', () => {
  it("takes the camera picture's own aspect, landscape or portrait", () => {
    expect(cameraBoxStyle(4 / 3)).toEqual({ aspectRatio: '1.3333', maxWidth: 'min(100%, calc(var(--camera-max-h) * 1.3333))' });
    expect(cameraBoxStyle(720 / 1280).aspectRatio).toBe('0.5625');
    expect(cameraBoxStyle(16 / 9).aspectRatio).toBe('1.7778');
  });

  it('starts at 4:3 until the camera says', () => {
    expect(cameraBoxStyle(null).aspectRatio).toBe(String(Math.round(DEFAULT_CAMERA_ASPECT * 10_000) / 10_000));
    expect(cameraBoxStyle(Number.NaN).aspectRatio).toBe('1.3333');
  });

  it("reads the aspect from a track's settings, or nothing when it has no size yet", () => {
    const stream = (settings: MediaTrackSettings) => ({ getVideoTracks: () => [{ getSettings: () => settings }] }) as unknown as MediaStream;
    expect(trackAspect(stream({ width: 640, height: 480 }))).toBeCloseTo(4 / 3);
    expect(trackAspect(stream({ width: 480, height: 640 }))).toBeCloseTo(3 / 4);
    expect(trackAspect(stream({}))).toBeNull();
    expect(trackAspect(null)).toBeNull();
    expect(aspectOf(0, 480)).toBeNull();
  });
});
