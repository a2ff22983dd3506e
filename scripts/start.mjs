// `npm start`: build what is missing or stale, then run the API and the in-process worker.
import { ensureBuilt } from './build-if-needed.mjs';

ensureBuilt();
await import('../dist/node/server/main.js');
