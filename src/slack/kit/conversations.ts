// What a conversation's id says of it, decided once.

/** A direct message with the app (its id starts with D): only the person and the app read it. */
export function isDirectMessageChannel(channelId: string): boolean {
  return channelId.startsWith('D');
}
