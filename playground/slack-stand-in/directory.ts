// Who and what a stand-in workspace holds, as the Web API methods look them up. The playground's is a
// closed list of people and conversations; the tests' (open-directory.ts) takes every id to exist,
// because the payloads tests send name people, channels and messages the stand-in never saw.

/** The workspace and the app as auth.test and every echoed message or view name them. */
export interface Identity {
  team: { id: string; name: string };
  app: { id: string; botId: string; userId: string; name: string; handle: string };
}

/** A person as users.info returns them. */
export interface Person {
  id: string;
  /** Slack's `name`: the handle. */
  handle: string;
  realName: string;
  displayName: string;
  /** Slack's locale string (`en-US`), returned only when the caller asks for it. */
  locale: string | undefined;
  teamId: string;
  isBot: boolean;
  timeZone: string;
}

/** A conversation as conversations.info returns it. */
export interface Place {
  id: string;
  kind: 'channel' | 'group' | 'im';
  /** A channel's name; none for a DM, as Slack gives none. */
  name: string | undefined;
  /** For a DM: whose DM with the app it is. */
  userId: string | undefined;
  /** Whether the app is a member (conversations.info's `is_member`): it gets the messages there. */
  appIsMember: boolean;
}

/** A user group as usergroups.list returns it; usergroups.users.list gives its members. */
export interface Usergroup {
  id: string;
  /** What people type after @ (`it-oncall`); Slack's `handle`. */
  handle: string;
  /** Its display name (`IT on call`). */
  name: string;
  members: readonly string[];
}

export interface Directory {
  readonly identity: Identity;
  person(id: string): Person | undefined;
  place(id: string): Place | undefined;
  /** The workspace's user groups. */
  usergroups(): readonly Usergroup[];
  /**
   * Whether a message, view, trigger or upload the stand-in never saw is taken to exist (the app's
   * own, and live) instead of being refused as Slack refuses an unknown one.
   */
  readonly assumesUnseen: boolean;
}

/** A person's DM with the app: `D` and their id without its `U` (or `W`), one per person as in Slack. */
export function dmOf(userId: string): string {
  return `D${userId.replace(/^[UW]/, '')}`;
}
