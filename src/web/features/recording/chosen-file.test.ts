import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VIDEO_MAX_BYTES, SAVE_LIMITS } from '../../../contract/api/public.schema.js';
import recordingEn from '../../i18n/recording-messages.en';
import recordingFr from '../../i18n/recording-messages.fr';
import { createTranslator } from '../../i18n/translator';
import {
  CHOSEN_VIDEO_MAX_BYTES,
  CHOSEN_VIDEO_MAX_SECONDS,
  checkChosenFile,
  checkChosenVideo,
  chosenFileRefusal,
  chosenFileType,
  mp4HasVideoTrack,
} from './chosen-file';
import { extensionFor } from './media-support';

const run = promisify(execFile);

describe('a video chosen from the device', () => {
  it("checks with the server's own limits", () => {
    expect(CHOSEN_VIDEO_MAX_BYTES).toBe(DEFAULT_VIDEO_MAX_BYTES);
    expect(CHOSEN_VIDEO_MAX_SECONDS).toBe(SAVE_LIMITS.maxDurationSeconds);
  });

  it('refuses what is plainly not a video, an empty file and a file over the size limit', () => {
    const file = (name: string, type: string, size = 1000) => ({ name, type, size });
    expect(checkChosenFile(file('answer.mp4', 'video/mp4'))).toBeNull();
    expect(checkChosenFile(file('IMG_0042.MOV', 'video/quicktime'))).toBeNull();
    // Some Android pickers give no type, or a generic one: the name and the later checks decide.
    expect(checkChosenFile(file('VID_20261125.mp4', ''))).toBeNull();
    expect(checkChosenFile(file('clip', ''))).toBeNull();
    expect(checkChosenFile(file('clip.mov', 'application/octet-stream'))).toBeNull();
    expect(checkChosenFile(file('photo.jpg', 'image/jpeg'))).toBe('notVideo');
    expect(checkChosenFile(file('voice.m4a', 'audio/mp4'))).toBe('notVideo');
    expect(checkChosenFile(file('terms.pdf', 'application/pdf'))).toBe('notVideo');
    expect(checkChosenFile(file('answer.mp4', 'video/mp4', 0))).toBe('empty');
    expect(checkChosenFile(file('answer.mp4', 'video/mp4', CHOSEN_VIDEO_MAX_BYTES))).toBeNull();
    expect(checkChosenFile(file('answer.mp4', 'video/mp4', CHOSEN_VIDEO_MAX_BYTES + 1))).toBe('tooLarge');
    expect(checkChosenFile(file('answer.mp4', 'video/mp4', 2048), 1024)).toBe('tooLarge');
  });

  it('keeps a type that names the container, from the browser or from the name', () => {
    expect(chosenFileType({ name: 'a.mp4', type: 'video/mp4' })).toBe('video/mp4');
    expect(chosenFileType({ name: 'IMG_0042.MOV', type: '' })).toBe('video/quicktime');
    expect(chosenFileType({ name: 'clip.webm', type: '' })).toBe('video/webm');
    expect(chosenFileType({ name: 'old.3gp', type: 'application/octet-stream' })).toBe('video/3gpp');
    expect(chosenFileType({ name: 'no-extension', type: '' })).toBe('video/mp4');
    // …which names the upload's file as the server expects (it probes the bytes, not the name).
    expect(extensionFor(chosenFileType({ name: 'IMG_0042.MOV', type: '' }))).toBe('mp4');
    expect(extensionFor(chosenFileType({ name: 'clip.webm', type: '' }))).toBe('webm');
  });

  it('refuses a video too long or too short, or without a picture, and leaves what it cannot tell to the server', () => {
    const info = (durationSeconds: number | null, hasVideo: boolean | null = true) => ({ durationSeconds, width: 640, height: 480, hasVideo });
    expect(checkChosenVideo(info(4))).toBeNull();
    expect(checkChosenVideo(info(CHOSEN_VIDEO_MAX_SECONDS))).toBeNull();
    expect(checkChosenVideo(info(CHOSEN_VIDEO_MAX_SECONDS + 0.5))).toBe('tooLong');
    expect(checkChosenVideo(info(95))).toBe('tooLong');
    expect(checkChosenVideo(info(0.4))).toBe('tooShort');
    expect(checkChosenVideo(info(4, false))).toBe('noPicture');
    // Unknown duration, unknown tracks, a picture this browser cannot decode (0 × 0), nothing read.
    expect(checkChosenVideo(info(null, null))).toBeNull();
    expect(checkChosenVideo({ durationSeconds: 3, width: 0, height: 0, hasVideo: null })).toBeNull();
    expect(checkChosenVideo({ durationSeconds: 3, width: 0, height: 0, hasVideo: true })).toBeNull();
    expect(checkChosenVideo(null)).toBeNull();
  });

  it("says why in the page's language, with the server's limits", () => {
    const fr = createTranslator('fr', recordingFr);
    expect(chosenFileRefusal('tooLong', fr, 34.2)).toBe(
      'Cette vidéo dure 0:34\u00a0; une réponse est limitée à 20\u00a0secondes. Filmez-en une plus courte, ou raccourcissez-la d\'abord sur votre appareil.',
    );
    expect(chosenFileRefusal('tooLarge', fr)).toContain('60\u00a0Mo');
    const en = createTranslator('en', recordingEn);
    expect(chosenFileRefusal('tooLong', en, 34.2)).toBe(
      'This video lasts 0:34; answers are limited to 20 seconds. Please film a shorter one, or trim it on your device first.',
    );
    expect(chosenFileRefusal('noPicture', en)).toBe('This file has no picture. Please choose a video filmed with a camera.');
  });
});

describe('reading the tracks of an MP4 or QuickTime file', () => {
  let dir: string;
  const clips: Record<string, Blob> = {};

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'vouchreel-chosen-file-'));
    const picture = ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'];
    const tone = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'];
    const make: Record<string, string[]> = {
      // A phone's usual file: H.264/AAC, its 'moov' box at the end (as written while filming).
      'phone.mp4': [...picture, ...tone, '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac'],
      // The same, 'moov' first (faststart), in a QuickTime container.
      'faststart.mov': [...picture, ...tone, '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-movflags', '+faststart'],
      // HEVC, which some browsers cannot decode (they then show 0 × 0): still a video.
      'hevc.mp4': [...picture, ...tone, '-t', '1', '-c:v', 'libx265', '-preset', 'ultrafast', '-x265-params', 'log-level=error', '-tag:v', 'hvc1', '-c:a', 'aac'],
      // Fragmented, as Safari's and Chromium's recorders write MP4.
      'fragmented.mp4': [...picture, ...tone, '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-movflags', '+frag_keyframe+empty_moov+default_base_moof'],
      // Sound only, in an MP4.
      'sound-only.mp4': [...tone, '-t', '2', '-c:a', 'aac'],
      'answer.webm': [...picture, ...tone, '-t', '1', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-c:a', 'libopus'],
    };
    for (const [name, args] of Object.entries(make)) {
      const file = path.join(dir, name);
      await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, file]);
      clips[name] = new Blob([await readFile(file)]);
    }
    clips['text.mp4'] = new Blob(['this is not a video at all']);
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds the video track of every MP4 and QuickTime kind, and none in a sound-only file', async () => {
    expect(await mp4HasVideoTrack(clips['phone.mp4']!)).toBe(true);
    expect(await mp4HasVideoTrack(clips['faststart.mov']!)).toBe(true);
    expect(await mp4HasVideoTrack(clips['hevc.mp4']!)).toBe(true);
    expect(await mp4HasVideoTrack(clips['fragmented.mp4']!)).toBe(true);
    expect(await mp4HasVideoTrack(clips['sound-only.mp4']!)).toBe(false);
  });

  it('cannot tell for other files, and says so rather than guess', async () => {
    expect(await mp4HasVideoTrack(clips['answer.webm']!)).toBeNull();
    expect(await mp4HasVideoTrack(clips['text.mp4']!)).toBeNull();
    expect(await mp4HasVideoTrack(new Blob([]))).toBeNull();
    // A box that claims more than the file holds ends the walk without an answer.
    const truncated = clips['phone.mp4']!.slice(0, 40);
    expect(await mp4HasVideoTrack(truncated)).toBeNull();
  });
});
