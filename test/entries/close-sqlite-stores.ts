// A process that opens the SQLite stores as the gateway does, keeps one answer context and closes
// them, with nothing else keeping it alive: the close must still come back, with the context written.
import { setTimeout as sleep } from 'node:timers/promises';
import { createStores } from '../../src/stores/index.js';
import { answerContext } from '../support/answer-context.js';

const path = process.env.STATE_FILE;
if (!path) throw new Error('STATE_FILE is required');
const stores = await createStores({
  state: { kind: 'sqlite', path },
  maxEntries: 100,
  ttlSeconds: 3_600,
});
await stores.contexts.put('T1:C1:1.1', answerContext());
// Past the checkpoint worker's start, as any gateway that ran a while.
await sleep(500);
await stores.close();
console.log('closed');
