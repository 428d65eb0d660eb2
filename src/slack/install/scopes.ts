// The bot scopes an install asks for: manifest.yml's, which a test holds this list to.
export const BOT_SCOPES: readonly string[] = [
  'app_mentions:read',
  'chat:write',
  'im:history',
  'channels:history',
  'groups:history',
  'users:read',
  'im:write',
  'files:write',
  'commands',
  'assistant:write',
  'usergroups:read',
  'channels:read',
  'groups:read',
];
