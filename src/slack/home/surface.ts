// The Home tab: what a person sees on opening the app, and its example questions asked from it.
import { HomeFiguresCache } from '../../service-desk/home-figures.js';
import type { Room } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { appHomeListener, homeExampleClickListener } from './app-home.js';
import { HOME_EXAMPLE_ACTION_PATTERN } from './ids.js';
import type { HomePieces } from './pieces.js';

export function homeRoom(kit: RoomKit): Room {
  const { env, platform, metrics } = kit.sources;
  const deps: RoomKit & HomePieces = {
    ...kit,
    home: {
      examples: env.HOME_EXAMPLE_QUESTIONS,
      figures: new HomeFiguresCache(platform),
      onPublish: (outcome) => metrics.homePublish(outcome),
    },
  };
  return {
    events: [['app_home_opened', appHomeListener(deps, kit.settings.slashCommand)]],
    clicks: [[HOME_EXAMPLE_ACTION_PATTERN, homeExampleClickListener(deps)]],
  };
}
