// Questions asked in the panel's threads are the answers room's (answers/message.ts).
import type { ListenerDeps } from '../handling/deps.js';
import type { Surface } from '../handling/surface.js';
import { contextChangedListener, threadStartedListener } from './thread-events.js';

export function assistantSurface(deps: ListenerDeps): Surface {
  return {
    events: [
      ['assistant_thread_started', threadStartedListener(deps)],
      ['assistant_thread_context_changed', contextChangedListener(deps)],
    ],
  };
}
