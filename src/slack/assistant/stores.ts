// What the assistant room keeps: the channel each panel thread's person is looking at, shared by every
// replica (Slack may deliver the next question to another one) and kept as long as the thread's answers.
import { z } from 'zod';

/** A Slack channel id, checked when read back from a shared store. */
export const contextChannelSchema = z.string().regex(/^[A-Z0-9]{2,32}$/);

/** The channel beside each assistant thread, by a key naming the workspace, the DM and the thread. */
export interface AssistantContextStore {
  get(threadKey: string): Promise<string | undefined>;
  set(threadKey: string, channelId: string, ttlSeconds: number): Promise<void>;
}
