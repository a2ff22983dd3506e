import { describe, expect, it } from 'vitest';
import {
  browserFamily,
  classifyMediaError,
  extensionFor,
  formatBytes,
  formatSeconds,
  mediaConstraints,
  pickMimeType,
  recordingUnsupportedReason,
  textColorOn,
} from './media-support';

describe('recording media support', () => {
  it('prefers WebM VP9, then VP8, then plain WebM, then MP4 for Safari', () => {
    expect(pickMimeType(() => true)).toBe('video/webm;codecs=vp9,opus');
    expect(pickMimeType((t) => t !== 'video/webm;codecs=vp9,opus')).toBe('video/webm;codecs=vp8,opus');
    expect(pickMimeType((t) => t.startsWith('video/mp4'))).toBe('video/mp4;codecs=avc1,mp4a');
    expect(pickMimeType((t) => t === 'video/mp4')).toBe('video/mp4');
    expect(pickMimeType(() => false)).toBe('');
    expect(
      pickMimeType(() => {
        throw new Error('unknown type');
      }),
    ).toBe('');
    expect(extensionFor('video/mp4;codecs=avc1')).toBe('mp4');
    expect(extensionFor('video/webm;codecs=vp8,opus')).toBe('webm');
    expect(extensionFor('')).toBe('webm');
  });

  it('asks for 720p from the front camera, or the chosen devices', () => {
    const video = mediaConstraints().video as MediaTrackConstraints;
    expect(video).toMatchObject({ width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: 'user' });
    const chosen = mediaConstraints('cam-2', 'mic-3');
    expect(chosen.video).toMatchObject({ deviceId: { exact: 'cam-2' } });
    expect(chosen.audio).toMatchObject({ deviceId: { exact: 'mic-3' } });
  });

  it('names every getUserMedia failure', () => {
    const err = (name: string) => ({ name });
    expect(classifyMediaError(err('NotAllowedError'))).toBe('permission-denied');
    expect(classifyMediaError(err('SecurityError'))).toBe('permission-denied');
    expect(classifyMediaError(err('NotFoundError'))).toBe('not-found');
    expect(classifyMediaError(err('NotReadableError'))).toBe('in-use');
    expect(classifyMediaError(err('AbortError'))).toBe('in-use');
    expect(classifyMediaError(new Error('boom'))).toBe('unknown');
    expect(classifyMediaError(undefined)).toBe('unknown');
    expect(recordingUnsupportedReason({ isSecureContext: false, hasGetUserMedia: true, hasMediaRecorder: true })).toBe('insecure');
    expect(recordingUnsupportedReason({ isSecureContext: true, hasGetUserMedia: true, hasMediaRecorder: false })).toBe('unsupported');
    expect(recordingUnsupportedReason({ isSecureContext: true, hasGetUserMedia: true, hasMediaRecorder: true })).toBeNull();
  });

  it('tells browsers apart for the how-to-fix text', () => {
    expect(browserFamily('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0 Safari/537.36')).toBe('chromium');
    expect(browserFamily('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe('safari');
    expect(browserFamily('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1')).toBe('ios');
    expect(browserFamily('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('firefox');
    expect(browserFamily('curl/8')).toBe('other');
  });

  it('picks readable text on the request colour, and formats times and sizes', () => {
    expect(textColorOn('#000000')).toBe('light');
    expect(textColorOn('#6d28d9')).toBe('light');
    expect(textColorOn('#ffffff')).toBe('dark');
    expect(textColorOn('#fde68a')).toBe('dark');
    expect(textColorOn('not a colour')).toBe('light');
    expect(formatSeconds(20)).toBe('0:20');
    expect(formatSeconds(6.2)).toBe('0:07');
    expect(formatSeconds(-1)).toBe('0:00');
    expect(formatBytes(1.5 * 1024 * 1024, 'en', { mb: 'MB', kb: 'KB' })).toBe('1.5\u00a0MB');
    expect(formatBytes(1.5 * 1024 * 1024, 'fr', { mb: 'Mo', kb: 'Ko' })).toBe('1,5\u00a0Mo');
    expect(formatBytes(2048, 'en', { mb: 'MB', kb: 'KB' })).toBe('2\u00a0KB');
  });
});
