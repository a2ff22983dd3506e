// Writes dist/pglite-template/: the empty embedded database a new DATA_DIR starts from (decision 181).
// Run after the server is compiled; does nothing when the template matches PGlite, pg-boss and the migrations.
import { readFile } from 'node:fs/promises';
import pino from 'pino';

const { PGLITE_TEMPLATE_DIR, templateKey } = await import('../dist/node/server/db/pglite-template.js');
const current = await readFile(`${PGLITE_TEMPLATE_DIR}/template.json`, 'utf8').then((text) => JSON.parse(text).key, () => undefined);
if (current !== templateKey()) {
  const { buildPgliteTemplate } = await import('../dist/node/server/runtime.js');
  const started = Date.now();
  await buildPgliteTemplate(pino({ level: 'warn' }));
  process.stdout.write(`Embedded database template written (${((Date.now() - started) / 1000).toFixed(1)} s).\n`);
}
