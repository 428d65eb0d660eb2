export const ACTION_CHANNEL_EDIT = 'channel_settings_edit';
export const VIEW_CHANNEL_SETTINGS = 'channel_settings';
