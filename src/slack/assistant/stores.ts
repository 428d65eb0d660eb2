// Shared by every replica: Slack may deliver a thread's next question to another one.
import { z } from 'zod';

/** What a panel title's claim key starts with, before the thread's workspace key. */
export const PANEL_TITLE_KEY = 'assistant-title:';

/** Checked when read back from a shared store. */
export const contextChannelSchema = z.string().regex(/^[A-Z0-9]{2,32}$/);

export interface AssistantContextStore {
  get(threadKey: string): Promise<string | undefined>;
  set(threadKey: string, channelId: string, ttlSeconds: number): Promise<void>;
}
