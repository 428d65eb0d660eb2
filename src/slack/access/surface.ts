import type { ListenerDeps } from '../handling/deps.js';
import type { Surface } from '../handling/surface.js';
import { operatorGroupListener } from './operator-group.js';

export function accessSurface(deps: ListenerDeps): Surface {
  return { events: [[/^subteam_(?:members_changed|updated)$/, operatorGroupListener(deps)]] };
}
