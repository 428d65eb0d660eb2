// Questions asked in the panel's threads are the answers room's (answers/message.ts).

import type { Room } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { contextChangedListener, threadStartedListener } from './thread-events.js';

export function assistantRoom(deps: RoomKit): Room {
  return {
    events: [
      ['assistant_thread_started', threadStartedListener(deps)],
      ['assistant_thread_context_changed', contextChangedListener(deps)],
    ],
  };
}
