// What only the home room holds beside the shared kit; its factory in surface.ts builds it.
import type { HomeFiguresCache } from '../../service-desk/home-figures.js';
import type { WorkspaceSetupSources } from '../kit/room-kit.js';

/** The Home tab's example questions, the operators' cached figures, and its metric. */
export interface HomePieces {
  home: {
    /** HOME_EXAMPLE_QUESTIONS; undefined: the defaults in the viewer's language. */
    examples: readonly string[] | undefined;
    figures: Pick<HomeFiguresCache, 'figures'>;
    onPublish(outcome: 'published' | 'failed'): void;
    /** Installed in many workspaces: each one's set-up, shown to its operators and changed from here. */
    setups?: WorkspaceSetupSources | undefined;
  };
}
