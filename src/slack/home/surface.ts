import type { ListenerDeps } from '../handling/deps.js';
import type { Surface } from '../handling/surface.js';
import { appHomeListener, homeExampleClickListener } from './app-home.js';
import { HOME_EXAMPLE_ACTION_PATTERN } from './ids.js';

export function homeSurface(deps: ListenerDeps, settings: { slashCommand: string }): Surface {
  return {
    events: [['app_home_opened', appHomeListener(deps, settings.slashCommand)]],
    clicks: [[HOME_EXAMPLE_ACTION_PATTERN, homeExampleClickListener(deps)]],
  };
}
