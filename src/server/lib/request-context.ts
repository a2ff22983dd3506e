import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the current HTTP request or job is, for the code that runs on its behalf: the request id that
 * started it (an HTTP request's own id, or the id carried in a job's payload) and the fields every log
 * line of it carries. Log lines of the root logger get these fields (lib/logger.ts), and jobs sent
 * meanwhile carry the request id on (queue/queue.ts).
 */
export interface RequestContext {
  requestId: string;
  bindings: Record<string, string | number>;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}
