import { createHash } from 'node:crypto';
import { mkdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { checkMediaTools, checkSpeechEngine, REQUIRED_ENCODERS, REQUIRED_FILTERS, type ToolProblem } from './toolchain.js';

/**
 * The start-up checks of the media tools, remembered once per installed version (decision 170): a
 * check that passed is written under DATA_DIR with a key made of what it checked (each program's real
 * path, size and modification time, and what was asked of it). The next start with the same programs
 * finds the key and runs nothing; a new ffmpeg, a moved one or a new requirement makes another key, so
 * it is checked again. Only passes are kept: a missing tool is looked for at every start.
 */

/** The file of passed checks, in DATA_DIR. */
export const TOOLCHAIN_CACHE_FILE = 'toolchain-checks.json';

/**
 * Where a program is and which version of it is installed: its real path, size and modification time,
 * or `missing:<name>` when there is no such file (a bare name is looked up in `searchPath`, as the
 * shell would).
 */
export async function programIdentity(program: string, searchPath: string): Promise<string> {
  const candidates = program.includes('/')
    ? [path.resolve(program)]
    : searchPath
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, program));
  for (const candidate of candidates) {
    try {
      const real = await realpath(candidate);
      const info = await stat(real);
      if (info.isFile()) return `${real}:${info.size}:${Math.round(info.mtimeMs)}`;
    } catch {
      // not there: the next folder
    }
  }
  return `missing:${program}`;
}

const isMissing = (identity: string) => identity.startsWith('missing:');

/** One key for a check: a digest of everything it depends on. */
export function checkKey(parts: ReadonlyArray<string>): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

async function readPassed(file: string): Promise<Record<string, string>> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    // No file yet, or one cut short by a crash: nothing is known to pass.
    return {};
  }
}

export async function hasPassed(dataDir: string, name: string, key: string): Promise<boolean> {
  return (await readPassed(path.join(dataDir, TOOLCHAIN_CACHE_FILE)))[name] === key;
}

/**
 * Records (`key`) or forgets (`null`) the pass of the check `name`. Written to a temporary file and
 * renamed over the old one, so a crash leaves the old file or the new one, never half of one. A
 * failure to write costs only the next start's time, so it is not an error.
 */
export function recordCheck(dataDir: string, name: string, key: string | null): Promise<void> {
  // One write at a time in this process: two checks end together at start-up.
  writing = writing.then(() => writeCheck(dataDir, name, key));
  return writing;
}
let writing: Promise<void> = Promise.resolve();

async function writeCheck(dataDir: string, name: string, key: string | null): Promise<void> {
  const file = path.join(dataDir, TOOLCHAIN_CACHE_FILE);
  try {
    const passed = await readPassed(file);
    if (key === null) delete passed[name];
    else passed[name] = key;
    await mkdir(dataDir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(passed, null, 2) + '\n');
    await rename(temporary, file);
  } catch {
    // DATA_DIR not writable: the checks run again next time.
  }
}

/**
 * What start-up must refuse to run without (toolchain.ts): ffprobe, and for a process that runs media
 * jobs ffmpeg with every filter and encoder the product uses. Runs the programs only when this set of
 * programs and requirements has not passed before.
 */
export async function mediaToolProblems(config: Config, runsMediaJobs: boolean): Promise<ToolProblem[]> {
  const [ffprobe, ffmpeg] = await Promise.all([
    programIdentity(config.ffprobePath, config.commandSearchPath),
    runsMediaJobs ? programIdentity(config.ffmpegPath, config.commandSearchPath) : 'not needed',
  ]);
  // A program not found as a file (a name the PATH given to us does not resolve) cannot be told apart
  // from another version: it is checked every time.
  const key = [ffprobe, ffmpeg].some(isMissing) ? null : checkKey(['media tools', ffprobe, ffmpeg, ...REQUIRED_FILTERS, ...REQUIRED_ENCODERS]);
  if (key && (await hasPassed(config.dataDir, 'media', key))) return [];
  const problems = await checkMediaTools({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath, runsMediaJobs });
  if (key) await recordCheck(config.dataDir, 'media', problems.length === 0 ? key : null);
  return problems;
}

/** The speech engine is run again this long after its last check, whatever is recorded. */
const SPEECH_RECHECK_MS = 5 * 60_000;
let speech: { at: number; setting: string; problem: Promise<ToolProblem | null> } | undefined;

/**
 * Whether the offline speech engine runs (null) or what to install. Start-up and /api/health share one
 * answer: the first check of a process trusts a recorded pass of the same program, later ones (every
 * five minutes, when health asks) run it, so an engine removed or installed meanwhile is seen.
 */
export function speechEngineProblem(config: Config): Promise<ToolProblem | null> {
  const o = { transcribeUrl: config.transcribe.url, pocketsphinxPath: config.transcribe.pocketsphinxPath };
  const setting = `${o.transcribeUrl ?? ''}|${o.pocketsphinxPath}`;
  if (speech && speech.setting === setting && Date.now() - speech.at < SPEECH_RECHECK_MS) return speech.problem;
  const trustRecord = speech?.setting !== setting;
  const problem = (async () => {
    if (o.transcribeUrl) return null;
    const engine = await programIdentity(o.pocketsphinxPath, config.commandSearchPath);
    const key = isMissing(engine) ? null : checkKey(['speech engine', engine]);
    if (key && trustRecord && (await hasPassed(config.dataDir, 'speech', key))) return null;
    const found = await checkSpeechEngine(o);
    if (key) await recordCheck(config.dataDir, 'speech', found ? null : key);
    return found;
  })();
  speech = { at: Date.now(), setting, problem };
  return problem;
}
