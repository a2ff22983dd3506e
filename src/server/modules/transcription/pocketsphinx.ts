/**
 * How the offline engine (Debian's pocketsphinx with its US English model) is run, and the audio it is
 * given. Settings chosen by measured word error rate on the bench's spoken answers (decision 171).
 */

/** The transcription job's audio for an engine: the answer's sound alone, mono, 16 kHz, 16-bit WAV. */
export function speechAudioArgs(input: string, output: string): string[] {
  return ['-i', input, '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', output];
}

/** pocketsphinx_continuous's arguments for one WAV file: each word with its start, end and confidence. */
export function pocketsphinxArgs(wavFile: string): string[] {
  return ['-infile', wavFile, '-time', 'yes', '-logfn', '/dev/null'];
}
