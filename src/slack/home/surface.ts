// The Home tab: what a person sees on opening the app, and its example questions asked from it.
import { HomeFiguresCache } from '../../service-desk/home-figures.js';
import type { Room } from '../handling/surface.js';
import type { RoomKit } from '../kit/room-kit.js';
import { ACTION_SETUP_OPEN, VIEW_WORKSPACE_SETUP } from '../setup/ids.js';
import { setupOpenListener } from '../setup/open-click.js';
import { setupSubmitListener } from '../setup/submit.js';
import { appHomeListener, homeExampleClickListener, homePublisher } from './app-home.js';
import { HOME_EXAMPLE_ACTION_PATTERN } from './ids.js';
import type { HomePieces } from './pieces.js';

export function homeRoom(kit: RoomKit): Room {
  const { env, platformOf, metrics, setups } = kit.sources;
  const figures = new HomeFiguresCache(platformOf);
  // Another account's figures: read from the new one, on every replica as soon as it is told.
  setups?.store.watch((workspace) => figures.forget(workspace));
  const deps: RoomKit & HomePieces = {
    ...kit,
    home: {
      examples: env.HOME_EXAMPLE_QUESTIONS,
      figures,
      onPublish: (outcome) => metrics.homePublish(outcome),
      setups,
    },
  };
  const publish = homePublisher(deps, kit.settings.slashCommand);
  return {
    events: [['app_home_opened', appHomeListener(deps, publish)]],
    clicks: [
      [HOME_EXAMPLE_ACTION_PATTERN, homeExampleClickListener(deps)],
      ...(setups ? ([[ACTION_SETUP_OPEN, setupOpenListener(deps, setups)]] as const) : []),
    ],
    ...(setups && { submissions: [[VIEW_WORKSPACE_SETUP, setupSubmitListener(deps, setups, publish)]] }),
  };
}
