// The channels room's ids: the Edit button under a channel's settings and the modal it opens.

export const ACTION_CHANNEL_EDIT = 'channel_settings_edit';
export const VIEW_CHANNEL_SETTINGS = 'channel_settings';
