// The tests' directory: every person, conversation, message and view exists, since a test's payloads
// make them up. People are described by setUser (a name, a locale) and otherwise get a default name.
import type { Directory, Identity, Person, Place, Usergroup } from './directory.js';

/** What a test may say about a person; the rest is made up. */
export interface OpenPerson {
  displayName?: string | undefined;
  realName?: string | undefined;
  name?: string | undefined;
  /** Only returned when the caller passes include_locale=true, as Slack does. */
  locale?: string | undefined;
  teamId?: string | undefined;
  isBot?: boolean | undefined;
  /** Slack's `tz`; Asia/Tokyo when not given. */
  timeZone?: string | undefined;
}

export class OpenDirectory implements Directory {
  readonly assumesUnseen = true;
  readonly #people = new Map<string, OpenPerson>();
  readonly #usergroups = new Map<string, Usergroup>();
  /** Channels the app is not a member of; it is in every other. */
  readonly #notIn = new Set<string>();

  constructor(
    readonly identity: Identity,
    people: Record<string, OpenPerson> = {},
  ) {
    for (const [id, person] of Object.entries(people)) this.#people.set(id, person);
  }

  setPerson(id: string, person: OpenPerson): void {
    this.#people.set(id, person);
  }

  /** A user group; its handle and name are made up from its id when not given. */
  setUsergroup(id: string, members: readonly string[], names: { handle?: string; name?: string } = {}): void {
    const handle = names.handle ?? id.toLowerCase();
    this.#usergroups.set(id, { id, handle, name: names.name ?? handle, members: [...members] });
  }

  /** Whether the app is a member of a channel (it is of every channel until told otherwise). */
  setAppMember(channel: string, member: boolean): void {
    if (member) this.#notIn.delete(channel);
    else this.#notIn.add(channel);
  }

  /** Forgets the people, user groups and memberships it was told about. */
  clear(): void {
    this.#people.clear();
    this.#usergroups.clear();
    this.#notIn.clear();
  }

  person(id: string): Person {
    const described = this.#people.get(id) ?? {};
    const displayName = described.displayName ?? `User ${id}`;
    return {
      id,
      handle: described.name ?? id.toLowerCase(),
      realName: described.realName ?? displayName,
      displayName,
      locale: described.locale,
      teamId: described.teamId ?? this.identity.team.id,
      isBot: described.isBot ?? false,
      timeZone: described.timeZone ?? 'Asia/Tokyo',
    };
  }

  /** A conversation of the kind its id's first letter names, as Slack's ids do. */
  place(id: string): Place {
    const kind = id.startsWith('D') ? 'im' : id.startsWith('G') ? 'group' : 'channel';
    return {
      id,
      kind,
      name: kind === 'im' ? undefined : `channel-${id.toLowerCase()}`,
      userId: undefined,
      appIsMember: !this.#notIn.has(id),
    };
  }

  usergroups(): readonly Usergroup[] {
    return [...this.#usergroups.values()];
  }
}
