/**
 * The customer's answers, kept on the device until the server confirms it has them (issue 5: nothing
 * lost). Native IndexedDB, no library.
 *
 * Database `vouchreel-recording`, version 1:
 * - object store `sessions`, key path `token`: one StoredSession per invitation link (where the
 *   customer is, their name and title, consent, teleprompter notes, chosen devices, and the validated
 *   request itself so the page can resume and resend without the network);
 * - object store `answers`, key path [`token`, `questionId`], index `by-token` on `token`: one
 *   StoredAnswer per accepted answer (the recording, or the video chosen from the device, its type,
 *   its question and background colour). A chosen file is kept like a recording: a File is a Blob.
 *
 * An accepted answer and the session that moves past it are written in ONE transaction, so the page
 * never resumes past an answer it does not have. When IndexedDB is unavailable (some private modes),
 * a memory store stands in and the page says the answers live only while it stays open.
 */
import type { TValidateTokenResponse } from '../../../contract/api/public.schema.js';

export type TRecordingStep = 'information' | 'devices' | 'recording' | 'complete';

export interface StoredSession {
  token: string;
  testimonialId: string;
  /** The validated request (testimonial and questions) as the page last received it. */
  context: TValidateTokenResponse;
  step: TRecordingStep;
  /** The question on screen in the recording step (0-based). */
  questionIndex: number;
  name: string;
  title: string;
  consentAccepted: boolean;
  consentVersion: string;
  /** Teleprompter notes by question id. */
  notes: Record<string, string>;
  notesVisible: boolean;
  notesFontSize: number;
  cameraId: string | null;
  microphoneId: string | null;
  updatedAt: string;
}

export interface StoredAnswer {
  token: string;
  questionId: string;
  blob: Blob;
  /** The recorder's type (e.g. `video/mp4;codecs=avc1,opus`) or the chosen file's (`video/quicktime`). */
  mimeType: string;
  bgColor: string;
  /** 0 when a chosen file's duration could not be read in the browser. */
  durationMs: number;
  recordedAt: string;
  /** Recorded on the page, or chosen from the device (absent in answers stored before issue 18: recorded). */
  source?: 'camera' | 'file';
  /** A chosen video's picture aspect (width / height), when the browser could read it. */
  aspect?: number | null;
}

export interface RecordingStore {
  /** False when the answers live only in memory (no IndexedDB). */
  readonly persistent: boolean;
  load(token: string): Promise<{ session: StoredSession | null; answers: StoredAnswer[] }>;
  saveSession(session: StoredSession): Promise<void>;
  /** Stores the answer and the session that moves past it, atomically. */
  saveAnswer(answer: StoredAnswer, session: StoredSession): Promise<void>;
  /** Forgets the link's session and answers (only after the server confirmed the submission). */
  clear(token: string): Promise<void>;
}

const DB_NAME = 'vouchreel-recording';
const DB_VERSION = 1;
const SESSIONS = 'sessions';
const ANSWERS = 'answers';
const BY_TOKEN = 'by-token';

/** What is written in the answers store: the blob, or its bytes where the browser cannot store blobs. */
interface AnswerRecord extends Omit<StoredAnswer, 'blob'> {
  data: Blob | ArrayBuffer;
}

function promisify<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

function openDatabase(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = factory.open(DB_NAME, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(SESSIONS)) db.createObjectStore(SESSIONS, { keyPath: 'token' });
      if (!db.objectStoreNames.contains(ANSWERS)) {
        const answers = db.createObjectStore(ANSWERS, { keyPath: ['token', 'questionId'] });
        answers.createIndex(BY_TOKEN, 'token', { unique: false });
      }
    };
    request.onsuccess = () => {
      const db = request.result;
      // A future version opened in another tab: let it upgrade rather than block it.
      db.onversionchange = () => db.close();
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB unavailable'));
    request.onblocked = () => reject(new Error('IndexedDB blocked by another tab'));
  });
}

function toAnswer(record: AnswerRecord): StoredAnswer {
  const { data, ...rest } = record;
  const blob = data instanceof Blob ? data : new Blob([data], { type: record.mimeType });
  return { ...rest, blob };
}

class IndexedDbStore implements RecordingStore {
  readonly persistent = true;
  /** Set once a browser refused to store a Blob: later answers go in as bytes straight away. */
  private blobsRefused = false;

  constructor(private readonly db: IDBDatabase) {}

  async load(token: string) {
    const tx = this.db.transaction([SESSIONS, ANSWERS], 'readonly');
    const [session, records] = await Promise.all([
      promisify(tx.objectStore(SESSIONS).get(token) as IDBRequest<StoredSession | undefined>),
      promisify(tx.objectStore(ANSWERS).index(BY_TOKEN).getAll(token) as IDBRequest<AnswerRecord[]>),
    ]);
    return { session: session ?? null, answers: records.map(toAnswer) };
  }

  async saveSession(session: StoredSession) {
    const tx = this.db.transaction(SESSIONS, 'readwrite');
    tx.objectStore(SESSIONS).put(session);
    await done(tx);
  }

  async saveAnswer(answer: StoredAnswer, session: StoredSession) {
    const write = async (data: Blob | ArrayBuffer) => {
      const tx = this.db.transaction([SESSIONS, ANSWERS], 'readwrite');
      const { blob: _blob, ...rest } = answer;
      const record: AnswerRecord = { ...rest, data };
      tx.objectStore(ANSWERS).put(record);
      tx.objectStore(SESSIONS).put(session);
      await done(tx);
    };
    if (!this.blobsRefused) {
      try {
        await write(answer.blob);
        return;
      } catch (error) {
        // Older Safari refuses Blobs in IndexedDB (DataCloneError or an UnknownError at commit):
        // the same bytes as an ArrayBuffer are always accepted. A full disk fails again below.
        if (error instanceof DOMException && error.name === 'QuotaExceededError') throw error;
        this.blobsRefused = true;
      }
    }
    await write(await answer.blob.arrayBuffer());
  }

  async clear(token: string) {
    const tx = this.db.transaction([SESSIONS, ANSWERS], 'readwrite');
    tx.objectStore(SESSIONS).delete(token);
    tx.objectStore(ANSWERS).delete(IDBKeyRange.bound([token], [token, []]));
    await done(tx);
  }
}

/** Keeps everything in memory: the fallback when the browser offers no IndexedDB. */
export class MemoryStore implements RecordingStore {
  readonly persistent = false;
  private sessions = new Map<string, StoredSession>();
  private answers = new Map<string, Map<string, StoredAnswer>>();

  async load(token: string) {
    return { session: this.sessions.get(token) ?? null, answers: [...(this.answers.get(token)?.values() ?? [])] };
  }

  async saveSession(session: StoredSession) {
    this.sessions.set(session.token, session);
  }

  async saveAnswer(answer: StoredAnswer, session: StoredSession) {
    const forToken = this.answers.get(answer.token) ?? new Map<string, StoredAnswer>();
    forToken.set(answer.questionId, answer);
    this.answers.set(answer.token, forToken);
    this.sessions.set(session.token, session);
  }

  async clear(token: string) {
    this.sessions.delete(token);
    this.answers.delete(token);
  }
}

/** IndexedDB when the browser offers it, else the memory store. */
export async function openRecordingStore(): Promise<RecordingStore> {
  try {
    if (typeof indexedDB === 'undefined') return new MemoryStore();
    return new IndexedDbStore(await openDatabase(indexedDB));
  } catch {
    return new MemoryStore();
  }
}

/** Asks the browser not to evict our storage under pressure (best effort, silent). */
export function requestPersistentStorage(): void {
  void navigator.storage?.persist?.().catch(() => undefined);
}
