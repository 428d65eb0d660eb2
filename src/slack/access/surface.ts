import type { Room } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { operatorGroupListener } from './operator-group.js';

export function accessRoom(kit: RoomKit): Room {
  return { events: [[/^subteam_(?:members_changed|updated)$/, operatorGroupListener(kit)]] };
}
