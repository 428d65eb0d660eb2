export const ACTION_SETUP_OPEN = 'workspace_setup_open';
export const VIEW_WORKSPACE_SETUP = 'workspace_setup';
