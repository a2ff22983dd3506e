// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../i18n/i18n';
import { CropEditor } from './crop-editor';
import { initialArea, type PixelArea } from './crop-math';
import type { VideoFrame } from './video-frame';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
  // jsdom has no ResizeObserver; the editor only measures its room with it.
  Object.assign(globalThis, { ResizeObserver: class { observe() {} disconnect() {} } });
});

/** The crop editor warns when the chosen area is too small to look sharp at the output's size (issue 27 item 13, decision 169). */

const frameOf = (width: number, height: number): VideoFrame => ({
  canvas: document.createElement('canvas'),
  original: { width, height },
  preview: { width, height },
  metadata: { duration: 10, width, height },
  time: 1,
});

function renderEditor(source: { width: number; height: number }, area: PixelArea, output = { width: 1080, height: 1920 }) {
  render(<CropEditor frame={frameOf(source.width, source.height)} ratio={output.width / output.height} output={output} area={area} onAreaChange={() => {}} />);
}

describe('CropEditor sharpness warning', () => {
  afterEach(async () => {
    cleanup();
    await act(() => i18n.changeLanguage('en'));
  });

  it('says a 270 px-wide 9:16 area of a 640×480 answer will be enlarged 4× and that the recording itself is too small', async () => {
    await act(() => i18n.changeLanguage('en'));
    renderEditor({ width: 640, height: 480 }, initialArea({ width: 640, height: 480 }, 9 / 16));
    const warning = screen.getByTestId('crop-soft');
    expect(warning.getAttribute('role')).toBe('status');
    expect(warning.textContent).toContain('This area may look soft');
    expect(warning.textContent).toContain('The recording is 270 px wide for this format and will be enlarged 4× to fill 1080 × 1920 px');
    expect(warning.textContent).toContain('higher resolution');
  });

  it('asks for a larger area when a smaller one than possible was chosen, in French', async () => {
    await act(() => i18n.changeLanguage('fr'));
    renderEditor({ width: 1920, height: 1080 }, { x: 100, y: 100, width: 200, height: 356 });
    const warning = screen.getByTestId('crop-soft');
    expect(warning.textContent).toContain('Cette zone risque d’être floue');
    expect(warning.textContent).toContain('Elle fait 200 px de large et sera agrandie 5,4 fois');
    expect(warning.textContent).toContain('Agrandissez la zone');
  });

  it('stays quiet when the area is enlarged at most twice', async () => {
    await act(() => i18n.changeLanguage('en'));
    // A 1080p landscape answer: the largest 9:16 area is 606 px wide, enlarged 1.8×.
    renderEditor({ width: 1920, height: 1080 }, initialArea({ width: 1920, height: 1080 }, 9 / 16));
    expect(screen.queryByTestId('crop-soft')).toBeNull();
    cleanup();
    // Exactly twice (540 px for 1080) is still sharp enough; a hair less is not.
    renderEditor({ width: 1920, height: 1080 }, { x: 0, y: 0, width: 540, height: 960 });
    expect(screen.queryByTestId('crop-soft')).toBeNull();
    cleanup();
    renderEditor({ width: 1920, height: 1080 }, { x: 0, y: 0, width: 538, height: 956 });
    expect(screen.getByTestId('crop-soft')).toBeTruthy();
  });
});
