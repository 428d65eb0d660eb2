// Single stores in one process, for tests that build one piece alone (the gateway's come from createStores).
import { contextChannelSchema } from '../../src/slack/assistant/stores.js';
import type { UsergroupMembers } from '../../src/slack/handling/stores.js';
import { KeptRatingStore } from '../../src/stores/kept-stores.js';
import { KeptNamespace, type MemoryBounds, memoryStrings } from '../../src/stores/namespace.js';
import { usergroupMembersSchema } from '../../src/stores/review-schemas.js';

export function memoryRatings(bounds: MemoryBounds): KeptRatingStore {
  return new KeptRatingStore(memoryStrings(bounds));
}

/** The operators' user groups, an hour each. */
export function memoryOperatorCache(bounds: Partial<MemoryBounds> = {}): KeptNamespace<UsergroupMembers> {
  return new KeptNamespace(memoryStrings({ maxEntries: 100, ...bounds }), 'operators', {
    schema: usergroupMembersSchema,
    ttlSeconds: 3600,
  });
}

/** The assistant panel's channel of each thread, an hour each. */
export function memoryAssistantContexts(bounds: MemoryBounds): KeptNamespace<string> {
  return new KeptNamespace(memoryStrings(bounds), 'assistant-context', {
    schema: contextChannelSchema,
    ttlSeconds: 3600,
  });
}
