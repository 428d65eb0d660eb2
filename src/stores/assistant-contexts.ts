// The assistant panel's store in one process, for what builds it alone; the gateway's is a namespace (stores.ts).
import { contextChannelSchema } from '../slack/assistant/stores.js';
import { KeptNamespace, memoryStrings } from './namespace.js';

export class MemoryAssistantContextStore extends KeptNamespace<string> {
  constructor(bounds: { maxEntries: number }) {
    super(memoryStrings(bounds), 'assistant-context', { schema: contextChannelSchema, ttlSeconds: 3600 });
  }
}
