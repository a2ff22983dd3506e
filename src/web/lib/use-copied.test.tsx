// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COPIED_MS, useCopied } from './use-copied';

await vi.hoisted(async () => {
  Object.assign(globalThis, { React: await import('react') });
});

function clipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

describe('useCopied', () => {
  afterEach(() => vi.useRealTimers());

  it("copies with the Clipboard API and says 'Copied' for 2 s", async () => {
    vi.useFakeTimers();
    const written: string[] = [];
    clipboard(async (text) => void written.push(text));
    const fallback = vi.fn(() => true);
    const { result } = renderHook(() => useCopied(fallback));
    await act(async () => expect(await result.current.copy('https://example.test/r/1')).toBe(true));
    expect(written).toEqual(['https://example.test/r/1']);
    expect(fallback).not.toHaveBeenCalled();
    expect(result.current.copied).toBe(true);
    act(() => vi.advanceTimersByTime(COPIED_MS));
    expect(result.current.copied).toBe(false);
  });

  it('falls back when the clipboard is refused, and says whether the fallback copied', async () => {
    clipboard(async () => Promise.reject(new DOMException('Denied', 'NotAllowedError')));
    const fallback = vi.fn(() => false);
    const { result } = renderHook(() => useCopied(fallback));
    await act(async () => expect(await result.current.copy('x')).toBe(false));
    expect(fallback).toHaveBeenCalledWith('x');
    expect(result.current.copied).toBe(false);
    fallback.mockReturnValue(true);
    await act(async () => expect(await result.current.copy('x')).toBe(true));
    expect(result.current.copied).toBe(true);
  });
});
