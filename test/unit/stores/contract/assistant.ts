// The contract of the assistant panel's store: the channel beside a thread, as one replica kept it,
// is what every replica reads back; a later change replaces it; what was never kept is no channel.
import { describe, expect, it } from 'vitest';
import { openFleet, type StoreImplementation } from './fleet.js';

export function describeAssistantContextStoreContract(implementation: StoreImplementation): void {
  describe('AssistantContextStore', () => {
    it('gives every replica the channel one replica kept beside a thread, and the latest one', async () => {
      const [a, b] = (await openFleet(implementation)).replicas;
      expect(await b.assistantContexts.get('T1:D1:1700000000.000100')).toBeUndefined();
      await a.assistantContexts.set('T1:D1:1700000000.000100', 'C0ITHELP', 60);
      expect(await b.assistantContexts.get('T1:D1:1700000000.000100')).toBe('C0ITHELP');
      await b.assistantContexts.set('T1:D1:1700000000.000100', 'C0HR', 60);
      expect(await a.assistantContexts.get('T1:D1:1700000000.000100')).toBe('C0HR');
      // Another thread of the same person has its own.
      expect(await a.assistantContexts.get('T1:D1:1700000000.000200')).toBeUndefined();
    });
  });
}
