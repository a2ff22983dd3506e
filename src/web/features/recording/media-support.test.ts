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
  it('prefers H.264 in MP4 (AAC, then Opus), then WebM VP9, VP8, plain WebM, and a bare MP4 last', () => {
    const supports = (types: string[]) => (type: string) => types.includes(type);
    // Everything (a Chrome with the proprietary codecs): H.264/AAC in MP4.
    expect(pickMimeType(() => true)).toBe('video/mp4;codecs=avc1,mp4a.40.2');
    // Safari: MP4 only, with AAC; one that knows the codec only by its full name.
    expect(pickMimeType(supports(['video/mp4', 'video/mp4;codecs=avc1,mp4a.40.2', 'video/mp4;codecs=avc1.42E01E,mp4a.40.2']))).toBe('video/mp4;codecs=avc1,mp4a.40.2');
    expect(pickMimeType(supports(['video/mp4', 'video/mp4;codecs=avc1.42E01E,mp4a.40.2']))).toBe('video/mp4;codecs=avc1.42E01E,mp4a.40.2');
    // Debian's Chromium 156: H.264 in MP4 but no AAC encoder, so Opus; WebM as well.
    const debianChromium = supports([
      'video/mp4',
      'video/mp4;codecs=avc1',
      'video/mp4;codecs=avc1,opus',
      'video/webm',
      'video/webm;codecs=vp9,opus',
      'video/webm;codecs=vp8,opus',
    ]);
    expect(pickMimeType(debianChromium)).toBe('video/mp4;codecs=avc1,opus');
    // Firefox and older Chromium: WebM.
    expect(pickMimeType(supports(['video/webm', 'video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus']))).toBe('video/webm;codecs=vp9,opus');
    expect(pickMimeType(supports(['video/webm', 'video/webm;codecs=vp8,opus']))).toBe('video/webm;codecs=vp8,opus');
    expect(pickMimeType(supports(['video/webm']))).toBe('video/webm');
    // An older Safari that answers only for the bare type.
    expect(pickMimeType(supports(['video/mp4']))).toBe('video/mp4');
    expect(pickMimeType(() => false)).toBe('');
    expect(
      pickMimeType(() => {
        throw new Error('unknown type');
      }),
    ).toBe('');
  });

  it('names an MP4 upload .mp4 whatever the recorder or the device calls it, and anything else .webm', () => {
    // What the recorders report once started, and what pickers give for a phone's video.
    expect(extensionFor('video/mp4;codecs=avc1.420029,opus')).toBe('mp4');
    expect(extensionFor('video/mp4;codecs=avc1,mp4a.40.2')).toBe('mp4');
    expect(extensionFor('video/mp4')).toBe('mp4');
    expect(extensionFor('video/quicktime')).toBe('mp4');
    expect(extensionFor('video/x-m4v')).toBe('mp4');
    expect(extensionFor('video/3gpp')).toBe('mp4');
    expect(extensionFor('video/webm;codecs=vp8,opus')).toBe('webm');
    expect(extensionFor('video/x-matroska;codecs=avc1,opus')).toBe('webm');
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
