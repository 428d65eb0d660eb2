// The playground page: a Slack-like client of the stand-in. It draws the workspace the server pushes
// (Server-Sent Events) and sends what the person does to the server, which signs it for the gateway.
import {
  type AnswerMode,
  API_PREFIX,
  type AssistantThread,
  type Conversation,
  type ElementValue,
  EVENTS_PATH,
  FAULT_KINDS,
  type PlaygroundMessage,
  type PlaygroundView,
  type Snapshot,
  type StateValues,
  WORKSPACE_PARAM,
} from '../protocol.js';
import {
  type BlockContext,
  renderBlocks,
  renderMrkdwn,
  renderText,
  setDateReader,
  setWorkspaceUrl,
} from './blocks.js';
import { append, fill, h } from './dom.js';
import { renderHome, renderModal, type ViewContextBase, type ViewState } from './views.js';
import { type PageWords, pageLanguageOf, pageWords } from './words.js';

type Place = { kind: 'conversation'; id: string } | { kind: 'home' };
type Source =
  | { kind: 'message' | 'ephemeral'; channel: string; ts: string }
  | { kind: 'view'; viewId: string };

/** How often the assistant's status line moves to its next loading message, as Slack rotates them. */
const LOADING_MESSAGE_MS = 2_000;

const state: {
  snapshot: Snapshot | undefined;
  me: string;
  place: Place;
  thread: { channel: string; ts: string } | undefined;
  /** The modal on screen, to keep what was typed when the app updates it. */
  modal: { id: string; hash: unknown; errors: string; state: ViewState } | undefined;
  highlight: string | undefined;
  /** Whether this person has the assistant panel open beside the conversation. */
  assistantOpen: boolean;
  /**
   * A digest just posted: its channel opens at the digest's top, as Slack opens a channel at what is new,
   * and stays there as its thread's charts arrive, until the person scrolls or goes elsewhere.
   */
  digest: { channel: string; before: ReadonlySet<string> } | undefined;
  /** The newest message each person has seen in each conversation (`person/conversation`), for unread marks. */
  seen: Map<string, string>;
} = {
  snapshot: undefined,
  me: '',
  place: { kind: 'conversation', id: '' },
  thread: undefined,
  modal: undefined,
  highlight: undefined,
  assistantOpen: false,
  digest: undefined,
  seen: new Map(),
};

function words(): PageWords {
  const persona = state.snapshot?.personas.find((person) => person.id === state.me);
  return pageWords(pageLanguageOf(persona?.locale));
}

const root = document.getElementById('app') ?? document.body;

/** The workspace this page shows, as its address names it; the feed and every action carry it on. */
const shownWorkspace = new URLSearchParams(window.location.search).get(WORKSPACE_PARAM);
const workspaceQuery =
  shownWorkspace === null ? '' : `?${WORKSPACE_PARAM}=${encodeURIComponent(shownWorkspace)}`;

const personaSelect = h('select', {
  id: 'persona',
  onchange: () => switchPersona(personaSelect.value),
});
const personaLabel = h('span', {});
const nav = h('nav', { class: 'nav', 'aria-label': 'Conversations' });
const workspaceName = h('div', { class: 'workspace-name' }, 'Acme (playground)');
/** Distributed mode only: the workspace switcher, installing and uninstalling, and the set-up hint. */
const workspacePanel = h('section', { class: 'workspaces', hidden: true, 'aria-label': 'Workspaces' });
const installBanner = h('div', { class: 'install-banner', role: 'status', hidden: true });
const faultsLegend = h('legend', {});
const faults = h('fieldset', { class: 'faults' }, faultsLegend);
const digestButton = h('button', {
  type: 'button',
  class: 'button digest-now',
  onclick: () => void postDigest(),
});
const title = h('div', { class: 'conversation-title' });
const purpose = h('div', { class: 'conversation-purpose' });
const assistantButton = h('button', {
  type: 'button',
  class: 'assistant-open',
  onclick: () => openAssistant(false),
});
const messageList = h('div', { class: 'messages', role: 'log' });
// Scrolled by the person: the list no longer holds a just-posted digest at its top.
for (const kind of ['wheel', 'touchmove', 'keydown'] as const) {
  messageList.addEventListener(kind, () => {
    state.digest = undefined;
  });
}
const home = h('div', { class: 'home-tab', hidden: true });
const composerInput = h('textarea', { class: 'composer-input', rows: '1' });
const composerSend = h('button', { type: 'submit', class: 'button button-primary composer-send' });
const composer = h(
  'form',
  { class: 'composer', onsubmit: (event) => submitComposer(event, composerInput, undefined) },
  composerInput,
  composerSend,
);
const threadList = h('div', { class: 'messages thread-messages', role: 'log' });
const threadInput = h('textarea', { class: 'composer-input', rows: '1' });
const threadTitle = h('span', {});
const threadClose = h(
  'button',
  { type: 'button', class: 'pane-close', onclick: () => openThread(undefined) },
  '×',
);
const threadSend = h('button', { type: 'submit', class: 'button button-primary composer-send' });
const threadPane = h(
  'aside',
  { class: 'thread', hidden: true },
  h('header', { class: 'pane-header' }, threadTitle, threadClose),
  threadList,
  h(
    'form',
    { class: 'composer', onsubmit: (event) => submitComposer(event, threadInput, state.thread?.ts) },
    threadInput,
    threadSend,
  ),
);
const callList = h('ol', { class: 'calls', reversed: true });
const activityTitle = h('span', {});
const activity = h(
  'aside',
  { class: 'activity' },
  h('header', { class: 'pane-header' }, activityTitle),
  callList,
);

// The app's assistant panel (Slack's split view): its thread, suggested prompts and status line.
const assistantName = h('span', { class: 'assistant-name' });
const assistantTitle = h('div', { class: 'assistant-title' });
const assistantContext = h('div', { class: 'assistant-context' });
const assistantNew = h('button', {
  type: 'button',
  class: 'button assistant-new',
  onclick: () => openAssistant(true),
});
const assistantClose = h(
  'button',
  { type: 'button', class: 'pane-close', onclick: () => closeAssistant() },
  '×',
);
const assistantList = h('div', { class: 'messages assistant-messages', role: 'log' });
const assistantPrompts = h('div', { class: 'assistant-prompts' });
const assistantStatus = h('div', { class: 'assistant-status', role: 'status', hidden: true });
const assistantInput = h('textarea', { class: 'composer-input', rows: '1' });
const assistantSend = h('button', { type: 'submit', class: 'button button-primary composer-send' });
const assistantPane = h(
  'aside',
  { class: 'assistant', hidden: true },
  h(
    'header',
    { class: 'pane-header assistant-header' },
    h('div', { class: 'assistant-heading' }, assistantName, assistantTitle, assistantContext),
    h('div', { class: 'assistant-tools' }, assistantNew, assistantClose),
  ),
  assistantList,
  assistantPrompts,
  assistantStatus,
  h(
    'form',
    { class: 'composer', onsubmit: (event) => submitAssistant(event) },
    assistantInput,
    assistantSend,
  ),
);
/** When the status line on screen appeared: its loading messages follow the work in order from there. */
let statusSince: number | undefined;
const modalLayer = h('div', { class: 'modal-host' });
const toasts = h('div', { class: 'toasts', 'aria-live': 'polite' });

for (const input of [composerInput, threadInput, assistantInput]) {
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      input.form?.requestSubmit();
    }
  });
}

fill(
  root,
  h(
    'aside',
    { class: 'sidebar' },
    workspaceName,
    workspacePanel,
    h('label', { class: 'persona' }, personaLabel, personaSelect),
    nav,
    faults,
    digestButton,
  ),
  h(
    'main',
    { class: 'conversation' },
    h(
      'header',
      { class: 'conversation-header' },
      h('div', { class: 'conversation-heading' }, title, purpose),
      assistantButton,
    ),
    installBanner,
    messageList,
    home,
    composer,
  ),
  threadPane,
  assistantPane,
  activity,
);
// Outside the three-column grid: layers over it.
document.body.append(modalLayer, toasts);

/** Sends a page action; a refusal is shown as a toast. Resolves with the server's answer when it is ok. */
async function post(action: string, body: unknown): Promise<unknown> {
  try {
    const response = await fetch(`${API_PREFIX}${action}${workspaceQuery}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const outcome: unknown = await response.json();
    if (response.ok) return outcome;
    const error =
      typeof outcome === 'object' && outcome !== null && 'error' in outcome
        ? String(outcome.error)
        : response.statusText;
    toast(error);
  } catch (error) {
    toast(`The playground server did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  return undefined;
}

/** The weekly digest, posted now: the page opens the channel it went to (a refusal says why instead). */
async function postDigest(): Promise<void> {
  digestButton.disabled = true;
  const before = new Set(state.snapshot?.messages.map((m) => `${m.channel}/${m.ts}`));
  const outcome = await post('digest', {});
  digestButton.disabled = false;
  if (typeof outcome === 'object' && outcome !== null && 'channel' in outcome) {
    state.digest = { channel: String(outcome.channel), before };
    go({ kind: 'conversation', id: String(outcome.channel) });
  }
}

/** The digest just posted, once the page has it: scrolled to its top, which the end of the list would hide. */
function revealDigest(): void {
  const digest = state.digest;
  const snapshot = state.snapshot;
  if (digest === undefined || snapshot === undefined) return;
  if (currentConversation() !== digest.channel) {
    state.digest = undefined;
    return;
  }
  const posted = snapshot.messages.find(
    (m) =>
      m.channel === digest.channel &&
      m.userId === snapshot.app.userId &&
      (m.threadTs === undefined || m.threadTs === m.ts) &&
      !digest.before.has(`${m.channel}/${m.ts}`),
  );
  const element = posted && messageList.querySelector(`.message[data-ts="${posted.ts}"]`);
  element?.scrollIntoView({ block: 'start' });
}

function toast(text: string): void {
  const note = h('div', { class: 'toast', role: 'alert' }, text);
  toasts.append(note);
  setTimeout(() => note.remove(), 8_000);
}

function submitComposer(event: Event, input: HTMLTextAreaElement, threadTs: string | undefined): void {
  event.preventDefault();
  const text = input.value.trim();
  const channel = currentConversation();
  if (text === '' || channel === undefined) return;
  input.value = '';
  void post('send', { userId: state.me, channel, text, ...(threadTs === undefined ? {} : { threadTs }) });
}

function currentConversation(): string | undefined {
  return state.place.kind === 'conversation' ? state.place.id : undefined;
}

function dmOf(userId: string): string | undefined {
  return state.snapshot?.conversations.find((c) => c.kind === 'im' && c.userId === userId)?.id;
}

function switchPersona(userId: string): void {
  const wasDm = state.snapshot?.conversations.find((c) => c.id === currentConversation())?.kind === 'im';
  state.me = userId;
  state.modal = undefined;
  // The panel is each person's own: the next person starts without it.
  state.assistantOpen = false;
  markAllSeen();
  if (wasDm) state.place = { kind: 'conversation', id: dmOf(userId) ?? '' };
  if (state.place.kind === 'home') void post('home', { userId });
  openThread(undefined);
  // Slack opens a conversation at its newest message, whoever one is now.
  scrollToNewest();
}

/** How the app answers the person the page is used as in a channel: a mention only, unless they are among its askers. */
function answersFor(conversation: Conversation, snapshot: Snapshot): AnswerMode {
  const { answers = 'mention', askers = 'anyone' } = conversation;
  if (askers === 'anyone' || askers.users.includes(state.me)) return answers;
  const inGroup = snapshot.usergroups.some(
    (group) => askers.groups.includes(group.id) && group.members.includes(state.me),
  );
  return inGroup ? answers : 'mention';
}

function scrollToNewest(): void {
  messageList.scrollTop = messageList.scrollHeight;
}

function go(place: Place): void {
  state.place = place;
  state.thread = undefined;
  if (place.kind === 'home') void post('home', { userId: state.me });
  // Slack tells the app which channel the person now looks at beside its open panel.
  if (state.assistantOpen)
    void post('assistant-context', { userId: state.me, channel: currentConversation() });
  render();
  scrollToNewest();
  revealDigest();
}

function openThread(thread: { channel: string; ts: string } | undefined): void {
  state.thread = thread;
  if (thread) state.assistantOpen = false;
  render();
  if (thread) threadInput.focus();
}

function myAssistantThread(): AssistantThread | undefined {
  return state.snapshot?.assistantThreads.findLast((thread) => thread.userId === state.me);
}

/** Opens the panel: on the person's thread when they have one (told where they are now), else a new one. */
function openAssistant(newChat: boolean): void {
  const channel = currentConversation();
  state.assistantOpen = true;
  state.thread = undefined;
  if (newChat || !myAssistantThread()) void post('assistant-open', { userId: state.me, channel });
  else void post('assistant-context', { userId: state.me, channel });
  render();
  assistantInput.focus();
}

function closeAssistant(): void {
  state.assistantOpen = false;
  render();
}

function submitAssistant(event: Event): void {
  event.preventDefault();
  const thread = myAssistantThread();
  const text = assistantInput.value.trim();
  if (!thread || text === '') return;
  assistantInput.value = '';
  void post('send', { userId: state.me, channel: thread.channel, text, threadTs: thread.threadTs });
}

function sendPrompt(thread: AssistantThread, message: string): void {
  void post('send', { userId: state.me, channel: thread.channel, text: message, threadTs: thread.threadTs });
}

function nameOf(id: string): string {
  const snapshot = state.snapshot;
  if (!snapshot) return id;
  if (id === snapshot.app.userId) return snapshot.app.name;
  if (id === 'USLACKBOT') return 'Slackbot';
  return (
    snapshot.personas.find((person) => person.id === id)?.name ??
    snapshot.conversations.find((conversation) => conversation.id === id)?.name ??
    snapshot.usergroups.find((group) => group.id === id)?.handle ??
    id
  );
}

function baseContext(source: Source): ViewContextBase {
  const snapshot = state.snapshot;
  return {
    nameOf,
    people: snapshot?.personas.map((person) => ({ id: person.id, name: person.name })) ?? [],
    conversations:
      snapshot?.conversations
        .filter((c) => c.kind === 'channel')
        .map((c) => ({ id: c.id, name: `#${c.name}` })) ?? [],
    act: (blockId: string, actionId: string, element: ElementValue) =>
      void post('click', { userId: state.me, source, blockId, actionId, element }),
    confirm: askToConfirm,
    fileImage: (id: string) =>
      snapshot?.messages.flatMap((message) => message.files).find((file) => file.id === id)?.image?.url,
  };
}

function messageContext(source: Source): BlockContext {
  return {
    ...baseContext(source),
    surface: 'message',
    errors: {},
    register: () => undefined,
    previous: () => undefined,
  };
}

function plainText(value: unknown): string {
  return typeof value === 'object' && value !== null && 'text' in value && typeof value.text === 'string'
    ? value.text
    : '';
}

/** A confirm dialog, as Slack shows one before a click that asks for it. */
function askToConfirm(dialog: Record<string, unknown>, then: () => void): void {
  const layer = h('div', { class: 'modal-layer confirm-layer' });
  const done = (confirmed: boolean) => {
    layer.remove();
    if (confirmed) then();
  };
  append(
    layer,
    h(
      'div',
      { class: 'modal confirm', role: 'alertdialog', 'aria-label': plainText(dialog.title) },
      h('header', { class: 'modal-header' }, h('h2', {}, plainText(dialog.title))),
      h('div', { class: 'modal-body' }, renderText(dialog.text, { nameOf })),
      h(
        'footer',
        { class: 'modal-footer' },
        h(
          'button',
          { type: 'button', class: 'button', onclick: () => done(false) },
          plainText(dialog.deny) || words().cancel,
        ),
        h(
          'button',
          {
            type: 'button',
            class: `button ${dialog.style === 'danger' ? 'button-danger' : 'button-primary'}`,
            onclick: () => done(true),
          },
          plainText(dialog.confirm) || words().yes,
        ),
      ),
    ),
  );
  document.body.append(layer);
}

/** The Slack time zone of the person the page is used as: Slack shows times in it, not the browser's. */
function myTimeZone(): string | undefined {
  return state.snapshot?.personas.find((person) => person.id === state.me)?.timeZone;
}

function time(ts: string): string {
  const date = new Date(Number(ts.split('.')[0]) * 1000);
  return date.toLocaleTimeString(words().timeLocale, {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: myTimeZone(),
  });
}

function visible(message: PlaygroundMessage): boolean {
  return message.visibleTo === undefined || message.visibleTo === state.me;
}

function renderMessage(
  message: PlaygroundMessage,
  options: { replies: number; inThread: boolean },
): HTMLElement {
  const snapshot = state.snapshot;
  const isApp = message.userId === snapshot?.app.userId;
  const ephemeral = message.visibleTo !== undefined;
  const source: Source = {
    kind: ephemeral ? 'ephemeral' : 'message',
    channel: message.channel,
    ts: message.ts,
  };
  const author = nameOf(message.userId);
  let body: HTMLElement;
  if (message.refusal) {
    body = h(
      'div',
      { class: 'refusal', role: 'alert' },
      h(
        'div',
        { class: 'refusal-title' },
        words().slackRefused(message.refusal.method),
        h('code', {}, message.refusal.error),
      ),
      message.refusal.problems.length > 0
        ? h('ul', {}, ...message.refusal.problems.map((problem) => h('li', {}, problem)))
        : undefined,
    );
  } else if (message.blocks && message.blocks.length > 0) {
    body = renderBlocks(message.blocks, messageContext(source));
  } else {
    body = h('div', { class: 'message-text' }, renderMrkdwn(message.text, { nameOf }));
  }
  // Slack offers message shortcuts on every message; the app decides what to do with each.
  const shortcuts = !ephemeral && !message.refusal ? (snapshot?.shortcuts ?? []) : [];
  const canReply = !ephemeral && !message.refusal && !options.inThread;
  const toolbar = h(
    'div',
    { class: 'message-toolbar' },
    canReply
      ? h(
          'button',
          {
            type: 'button',
            class: 'toolbar-button',
            title: words().replyInThread,
            'aria-label': words().replyInThread,
            onclick: () => openThread({ channel: message.channel, ts: message.ts }),
          },
          '💬',
        )
      : undefined,
    shortcuts.length === 0
      ? undefined
      : h(
          'details',
          { class: 'message-actions' },
          h('summary', { 'aria-label': words().moreActions, title: words().moreActions }, '⋮'),
          h(
            'div',
            { class: 'message-menu' },
            ...shortcuts.map((shortcut) =>
              h(
                'button',
                {
                  type: 'button',
                  class: 'menu-item',
                  onclick: () =>
                    void post('shortcut', {
                      userId: state.me,
                      channel: message.channel,
                      ts: message.ts,
                      callbackId: shortcut.callbackId,
                    }),
                },
                shortcut.name,
              ),
            ),
          ),
        ),
  );
  const element = h(
    'div',
    {
      class: `message${ephemeral ? ' ephemeral' : ''}${isApp ? ' from-app' : ''}${state.highlight === `${message.channel}/${message.ts}` ? ' highlight' : ''}`,
      'data-ts': message.ts,
      'data-channel': message.channel,
      'data-author': message.userId,
    },
    h(
      'div',
      { class: `avatar${isApp ? ' avatar-app' : ''}`, 'aria-hidden': 'true' },
      isApp ? '🤖' : (author[0] ?? '?'),
    ),
    h(
      'div',
      { class: 'message-content' },
      h(
        'div',
        { class: 'message-header' },
        h('span', { class: 'author' }, author),
        isApp ? h('span', { class: 'badge' }, 'APP') : undefined,
        h('span', { class: 'time' }, time(message.ts)),
        message.edited ? h('span', { class: 'edited' }, words().edited) : undefined,
      ),
      body,
      ...message.files.map((file) =>
        h(
          'div',
          { class: 'file' },
          h(
            'div',
            { class: 'file-name' },
            `📄 ${file.title}`,
            h('span', { class: 'file-size' }, ` ${file.name} · ${file.size} bytes`),
          ),
          file.image
            ? h('img', { class: 'file-image', src: file.image.url, alt: file.image.altText ?? file.title })
            : undefined,
          file.preview ? h('pre', { class: 'file-preview' }, file.preview) : undefined,
        ),
      ),
      ephemeral ? h('div', { class: 'ephemeral-note' }, words().onlyVisibleToYou) : undefined,
      options.replies > 0 && !options.inThread
        ? h(
            'button',
            {
              type: 'button',
              class: 'replies',
              onclick: () => openThread({ channel: message.channel, ts: message.ts }),
            },
            words().replies(options.replies),
          )
        : undefined,
    ),
    toolbar,
  );
  return element;
}

function isAtEnd(list: HTMLElement): boolean {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 80;
}

/**
 * Whether each list was at its end when last drawn or scrolled: a resize (which moves no scrollbar, so
 * sends no scroll event) keeps it there, as Slack keeps the newest message in sight.
 */
const heldAtEnd = new WeakMap<Element, boolean>();
const resizes = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (heldAtEnd.get(target)) target.scrollTop = target.scrollHeight;
  }
});
for (const list of [messageList, threadList, assistantList]) {
  list.addEventListener('scroll', () => heldAtEnd.set(list, isAtEnd(list)));
  resizes.observe(list);
}

function keepScrolledToEnd(list: HTMLElement, draw: () => void): void {
  const atEnd = isAtEnd(list);
  draw();
  if (atEnd) list.scrollTop = list.scrollHeight;
  heldAtEnd.set(list, atEnd);
}

function render(): void {
  const snapshot = state.snapshot;
  if (!snapshot) return;
  const said = words();
  applyWords(said, snapshot);
  const place = state.place;
  const conversation =
    place.kind === 'conversation' ? snapshot.conversations.find((c) => c.id === place.id) : undefined;
  if (conversation) markSeen(conversation.id);
  renderSidebar(snapshot, said);
  renderWorkspaces(snapshot);
  messageList.hidden = place.kind === 'home';
  home.hidden = place.kind !== 'home';
  // Home has no messages: the composer stays in its place, disabled, saying where to write instead.
  composerInput.disabled = place.kind === 'home';
  composerSend.disabled = place.kind === 'home';
  if (place.kind === 'home') {
    fill(title, said.homeTitle(snapshot.app.name));
    fill(purpose, said.homePurpose);
    composerInput.value = '';
    composerInput.placeholder = said.homeComposerHint;
    fill(
      home,
      renderHome(
        snapshot.homes[state.me],
        baseContext({ kind: 'view', viewId: snapshot.homes[state.me]?.id ?? 'home' }),
        said,
      ),
    );
  } else if (conversation) {
    fill(title, conversation.kind === 'channel' ? `# ${conversation.name}` : `🤖 ${snapshot.app.name}`);
    fill(
      purpose,
      conversation.kind === 'im'
        ? said.dmPurpose(nameOf(conversation.userId ?? ''), snapshot.app.name)
        : (said.channelPurpose(conversation.name) ?? conversation.purpose),
    );
    composerInput.placeholder =
      conversation.kind === 'channel'
        ? said.channelPlaceholder(
            conversation.name,
            snapshot.slashCommand,
            answersFor(conversation, snapshot),
          )
        : said.dmPlaceholder(snapshot.app.name, snapshot.slashCommand);
    const inConversation = snapshot.messages.filter((m) => m.channel === conversation.id && visible(m));
    const replies = (ts: string) => inConversation.filter((m) => m.threadTs === ts && m.ts !== ts).length;
    const shown = inConversation.filter(
      (m) => (m.threadTs === undefined || m.threadTs === m.ts) && m.subtype !== 'assistant_app_thread',
    );
    keepScrolledToEnd(messageList, () =>
      fill(
        messageList,
        ...shown.map((m) => renderMessage(m, { replies: replies(m.ts), inThread: false })),
        shown.length === 0 ? h('div', { class: 'empty' }, said.noMessages) : undefined,
      ),
    );
  }
  renderThread(snapshot, said);
  renderAssistant(snapshot, said);
  renderCalls(snapshot);
  renderModalLayer(snapshot);
  revealDigest();
}

/** The page's own labels, in the language of the person it is used as. */
function applyWords(said: PageWords, snapshot: Snapshot): void {
  const me = snapshot.personas.find((person) => person.id === state.me);
  document.documentElement.lang = pageLanguageOf(me?.locale);
  setDateReader({ timeZone: me?.timeZone ?? 'UTC', locale: said.timeLocale });
  personaLabel.textContent = said.youAre;
  personaSelect.setAttribute('aria-label', said.youAre);
  faultsLegend.textContent = said.faults;
  digestButton.textContent = said.postDigest;
  digestButton.title = said.postDigestHint;
  messageList.setAttribute('aria-label', said.messages);
  composerInput.setAttribute('aria-label', said.message);
  composerSend.textContent = said.send;
  threadTitle.textContent = said.thread;
  threadPane.setAttribute('aria-label', said.thread);
  threadList.setAttribute('aria-label', said.thread);
  threadClose.setAttribute('aria-label', said.closeThread);
  threadInput.setAttribute('aria-label', said.reply);
  threadInput.placeholder = said.replyPlaceholder;
  threadSend.textContent = said.reply;
  activity.setAttribute('aria-label', said.webApiCalls);
  activityTitle.textContent = said.gatewaySends;
  assistantButton.textContent = `✨ ${snapshot.app.name}`;
  assistantButton.setAttribute('aria-label', said.openAssistant);
  assistantButton.title = said.openAssistant;
  assistantPane.setAttribute('aria-label', said.assistant);
  assistantList.setAttribute('aria-label', said.assistant);
  assistantName.textContent = `✨ ${snapshot.app.name}`;
  assistantNew.textContent = said.newChat;
  assistantClose.setAttribute('aria-label', said.closeAssistant);
  assistantInput.setAttribute('aria-label', said.askAssistant);
  assistantInput.placeholder = said.askPlaceholder(snapshot.app.name);
  assistantSend.textContent = said.send;
  for (const label of faults.querySelectorAll<HTMLElement>('[data-fault-label]')) {
    const kind = FAULT_KINDS.find((candidate) => candidate === label.dataset.faultLabel);
    if (kind) label.textContent = ` ${said.faultLabels[kind]}`;
  }
}

/** The newest message of a conversation this person can see at the top level (where Slack counts unread). */
function newestTs(snapshot: Snapshot, conversationId: string): string {
  let newest = '';
  for (const message of snapshot.messages) {
    if (message.channel !== conversationId || !visible(message) || message.threadTs !== undefined) continue;
    if (message.subtype === 'assistant_app_thread') continue;
    if (Number(message.ts) > Number(newest || '0')) newest = message.ts;
  }
  return newest;
}

function markSeen(conversationId: string): void {
  if (!state.snapshot) return;
  const newest = newestTs(state.snapshot, conversationId);
  if (newest !== '') state.seen.set(`${state.me}/${conversationId}`, newest);
}

/** What was there before a person is first shown counts as read: only what arrives later is new. */
function markAllSeen(): void {
  for (const conversation of state.snapshot?.conversations ?? []) {
    if (!state.seen.has(`${state.me}/${conversation.id}`)) markSeen(conversation.id);
  }
}

function unreadCount(snapshot: Snapshot, conversationId: string): number {
  const seen = Number(state.seen.get(`${state.me}/${conversationId}`) ?? '0');
  return snapshot.messages.filter(
    (m) =>
      m.channel === conversationId &&
      m.threadTs === undefined &&
      m.subtype !== 'assistant_app_thread' &&
      m.userId !== state.me &&
      visible(m) &&
      Number(m.ts) > seen,
  ).length;
}

/** Distributed mode: which workspace this is, whether the app is in it, and how to set it up. */
function renderWorkspaces(snapshot: Snapshot): void {
  fill(workspaceName, snapshot.team.name);
  const view = snapshot.distributed;
  workspacePanel.hidden = view === undefined;
  installBanner.hidden = view === undefined || view.installed;
  if (!view) return;
  fill(
    installBanner,
    `${snapshot.app.name} is not installed in ${snapshot.team.name}: nothing you write here reaches it. `,
    h(
      'a',
      { href: `/slack/install?${WORKSPACE_PARAM}=${encodeURIComponent(snapshot.team.id)}` },
      'Add to Slack',
    ),
  );
  const account = view.account;
  fill(
    workspacePanel,
    h(
      'nav',
      { class: 'workspace-switcher', 'aria-label': 'Switch workspace' },
      ...view.workspaces.map((workspace) =>
        h(
          'a',
          {
            class: `workspace-link${workspace.id === snapshot.team.id ? ' current' : ''}`,
            href: `/?${WORKSPACE_PARAM}=${encodeURIComponent(workspace.id)}`,
            'aria-current': workspace.id === snapshot.team.id ? 'page' : undefined,
          },
          workspace.name,
          workspace.installed ? undefined : h('span', { class: 'not-installed' }, ' · not installed'),
        ),
      ),
    ),
    view.installed
      ? h(
          'button',
          { type: 'button', class: 'button uninstall', onclick: () => void post('uninstall', {}) },
          'Uninstall',
        )
      : h(
          'a',
          {
            class: 'button button-primary add-to-slack',
            href: `/slack/install?${WORKSPACE_PARAM}=${encodeURIComponent(snapshot.team.id)}`,
          },
          'Add to Slack',
        ),
    account
      ? h(
          'div',
          { class: 'setup-hint' },
          h('p', {}, `${snapshot.team.name}'s platform account, to type in Home → Set up:`),
          h(
            'dl',
            { 'aria-label': 'Platform account' },
            ...(
              [
                ['Platform URL', account.url],
                ['System number', account.sysNum],
                ['App id', account.appId],
                ['App key', account.appKey],
              ] as const
            ).flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, h('code', {}, value))]),
          ),
        )
      : undefined,
  );
}

function renderSidebar(snapshot: Snapshot, said: PageWords): void {
  if (personaSelect.options.length !== snapshot.personas.length) {
    fill(
      personaSelect,
      ...snapshot.personas.map((person) =>
        h('option', { value: person.id }, person.role ? `${person.name} (${person.role})` : person.name),
      ),
    );
  }
  personaSelect.value = state.me;
  const item = (label: string, place: Place, current: boolean) => {
    const unread = place.kind === 'conversation' && !current ? unreadCount(snapshot, place.id) : 0;
    return h(
      'button',
      {
        type: 'button',
        class: `nav-item${current ? ' current' : ''}${unread > 0 ? ' unread' : ''}`,
        'aria-current': current ? 'page' : undefined,
        onclick: () => go(place),
      },
      h('span', { class: 'nav-label' }, label),
      unread > 0
        ? h(
            'span',
            { class: 'unread-count', 'aria-label': said.unread(unread), title: said.unread(unread) },
            String(unread),
          )
        : undefined,
    );
  };
  const here = currentConversation();
  const dm = dmOf(state.me);
  fill(
    nav,
    item(`🏠 ${said.home}`, { kind: 'home' }, state.place.kind === 'home'),
    h('div', { class: 'nav-heading' }, said.channels),
    ...snapshot.conversations
      .filter((c) => c.kind === 'channel')
      .map((c) => item(`# ${c.name}`, { kind: 'conversation', id: c.id }, here === c.id)),
    h('div', { class: 'nav-heading' }, said.directMessages),
    dm ? item(`🤖 ${snapshot.app.name}`, { kind: 'conversation', id: dm }, here === dm) : undefined,
  );
  if (faults.querySelectorAll('input').length === 0) {
    append(
      faults,
      ...FAULT_KINDS.map((kind) =>
        h(
          'label',
          { class: 'fault' },
          h('input', {
            type: 'radio',
            name: 'fault',
            value: kind,
            onchange: () => void post('fault', { kind }),
          }),
          h('span', { 'data-fault-label': kind }, ` ${said.faultLabels[kind]}`),
        ),
      ),
    );
  }
  for (const input of faults.querySelectorAll('input')) input.checked = input.value === snapshot.fault;
  faults.dataset.active = snapshot.fault;
}

function renderThread(snapshot: Snapshot, said: PageWords): void {
  const thread = state.thread;
  const parent = thread
    ? snapshot.messages.find((m) => m.channel === thread.channel && m.ts === thread.ts)
    : undefined;
  threadPane.hidden = parent === undefined;
  activity.hidden = parent !== undefined || state.assistantOpen;
  if (!parent) return;
  const replies = snapshot.messages.filter(
    (m) => m.channel === parent.channel && m.threadTs === parent.ts && m.ts !== parent.ts && visible(m),
  );
  keepScrolledToEnd(threadList, () =>
    fill(
      threadList,
      renderMessage(parent, { replies: 0, inThread: true }),
      h('div', { class: 'thread-count' }, said.replies(replies.length)),
      ...replies.map((m) => renderMessage(m, { replies: 0, inThread: true })),
    ),
  );
}

/** The panel as Slack draws it: the thread's title, the channel beside it, replies, prompt chips, status. */
function renderAssistant(snapshot: Snapshot, said: PageWords): void {
  assistantPane.hidden = !state.assistantOpen;
  if (!state.assistantOpen) return;
  const thread = myAssistantThread();
  assistantTitle.textContent = thread?.title ?? '';
  const beside = thread?.contextChannel;
  assistantContext.textContent =
    beside === undefined
      ? said.besideHome
      : said.besideChannel(
          snapshot.conversations.find((c) => c.id === beside && c.kind === 'channel')
            ? `#${nameOf(beside)}`
            : `🤖 ${snapshot.app.name}`,
        );
  assistantInput.disabled = thread === undefined;
  assistantSend.disabled = thread === undefined;
  const replies = thread
    ? snapshot.messages.filter(
        (m) =>
          m.channel === thread.channel &&
          m.threadTs === thread.threadTs &&
          m.ts !== thread.threadTs &&
          visible(m),
      )
    : [];
  keepScrolledToEnd(assistantList, () =>
    fill(
      assistantList,
      thread ? undefined : h('div', { class: 'empty' }, said.assistantGreetingWait),
      ...replies.map((m) => renderMessage(m, { replies: 0, inThread: true })),
    ),
  );
  const prompts = thread?.prompts ?? [];
  assistantPrompts.hidden = prompts.length === 0;
  fill(
    assistantPrompts,
    thread?.promptsTitle ? h('div', { class: 'assistant-prompts-title' }, thread.promptsTitle) : undefined,
    ...prompts.map((prompt) =>
      h(
        'button',
        {
          type: 'button',
          class: 'prompt-chip',
          title: prompt.message,
          onclick: () => thread && sendPrompt(thread, prompt.message),
        },
        prompt.title,
      ),
    ),
  );
  renderAssistantStatus(thread, snapshot.app.name);
}

/** "Helpdesk Robot is looking this up…", then each loading message in turn while the status lasts. */
function renderAssistantStatus(thread: AssistantThread | undefined, appName: string): void {
  const status = thread?.status ?? '';
  assistantStatus.hidden = status === '';
  if (!thread || status === '') {
    assistantStatus.replaceChildren();
    statusSince = undefined;
    return;
  }
  statusSince ??= Date.now();
  const loading = thread.loadingMessages;
  // One message per interval since the status appeared, staying on the last: never back to the first.
  const step = Math.min(Math.floor((Date.now() - statusSince) / LOADING_MESSAGE_MS), loading.length - 1);
  fill(
    assistantStatus,
    h('span', { class: 'assistant-status-dots', 'aria-hidden': 'true' }, '•••'),
    h('b', {}, appName),
    ` ${status}`,
    loading.length > 0 ? h('span', { class: 'assistant-loading' }, ` ${loading[step] ?? ''}`) : undefined,
  );
}

setInterval(() => {
  if (state.assistantOpen && state.snapshot && (myAssistantThread()?.loadingMessages.length ?? 0) > 1)
    renderAssistantStatus(myAssistantThread(), state.snapshot.app.name);
}, LOADING_MESSAGE_MS);

function renderCalls(snapshot: Snapshot): void {
  fill(
    callList,
    ...[...snapshot.calls]
      .reverse()
      .map((call) =>
        h(
          'li',
          { class: `call${call.ok ? '' : ' call-failed'}` },
          h(
            'span',
            { class: 'call-time' },
            new Date(call.at).toLocaleTimeString(words().timeLocale, { timeZone: myTimeZone() }),
          ),
          ' ',
          h('code', {}, call.method),
          call.ok ? ' ✓' : ` ✗ ${call.error ?? ''}`,
          h('div', { class: 'call-summary' }, call.summary),
        ),
      ),
  );
}

function renderModalLayer(snapshot: Snapshot): void {
  const top: PlaygroundView | undefined = snapshot.modals[state.me]?.at(-1);
  if (!top) {
    state.modal = undefined;
    modalLayer.replaceChildren();
    return;
  }
  const errors = JSON.stringify(top.errors);
  const drawn = state.modal;
  if (drawn && drawn.id === top.id && drawn.hash === top.view.hash && drawn.errors === errors) return;
  // What was typed stays when the app redraws the same view (Slack keeps inputs with the same ids).
  const previous: StateValues = drawn && drawn.id === top.id ? drawn.state.values() : {};
  const { element, state: viewState } = renderModal(
    top,
    baseContext({ kind: 'view', viewId: top.id }),
    previous,
    words(),
    {
      submit: (view, values) => void post('submit', { userId: state.me, viewId: view.id, values }),
      close: (view) => void post('close', { userId: state.me, viewId: view.id }),
    },
  );
  state.modal = { id: top.id, hash: top.view.hash, errors, state: viewState };
  fill(modalLayer, element);
}

/** Set in this tab's sessionStorage at its first load: a reload keeps it, a new tab starts without it. */
const TAB_LOADED_KEY = 'playground-tab-loaded';

/**
 * Slack's client starts with no modal open: those a reload of this tab left open are closed. A new tab
 * is another client, so the person's modal in the first one stays.
 */
function closeModalsLeftOpen(snapshot: Snapshot): void {
  const reloaded = sessionStorage.getItem(TAB_LOADED_KEY) !== null;
  sessionStorage.setItem(TAB_LOADED_KEY, '1');
  const bottom = reloaded ? snapshot.modals[state.me]?.[0] : undefined;
  if (!bottom) return;
  // Not drawn meanwhile; closing the bottom view closes those pushed over it.
  delete snapshot.modals[state.me];
  void post('close', { userId: state.me, viewId: bottom.id });
}

/** `#C123/1700000000.000100`: a permalink's message, shown in its conversation or thread. */
function followPermalink(): void {
  const match = /^#([A-Z0-9]+)\/(\d+\.\d+)$/.exec(window.location.hash);
  if (!match || !state.snapshot) return;
  const [, channel = '', ts = ''] = match;
  const message = state.snapshot.messages.find((m) => m.channel === channel && m.ts === ts);
  state.place = { kind: 'conversation', id: channel };
  state.highlight = `${channel}/${ts}`;
  state.thread =
    message?.threadTs && message.threadTs !== message.ts ? { channel, ts: message.threadTs } : undefined;
  // A thread takes the panel's place beside the conversation, as opening one from a message does.
  if (state.thread) state.assistantOpen = false;
  if (state.assistantOpen) void post('assistant-context', { userId: state.me, channel });
  render();
  document.querySelector('.message.highlight')?.scrollIntoView({ block: 'center' });
}

window.addEventListener('hashchange', followPermalink);

const feed = new EventSource(`${EVENTS_PATH}${workspaceQuery}`);
feed.onmessage = (event: MessageEvent<string>) => {
  const first = state.snapshot === undefined;
  state.snapshot = JSON.parse(event.data) as Snapshot;
  setWorkspaceUrl(state.snapshot.team.url);
  if (first) {
    const wanted = new URLSearchParams(window.location.search).get('as');
    const me = state.snapshot.personas.find((person) => person.id === wanted) ?? state.snapshot.personas[0];
    state.me = me?.id ?? '';
    state.place = { kind: 'conversation', id: dmOf(state.me) ?? '' };
    closeModalsLeftOpen(state.snapshot);
    markAllSeen();
    root.classList.add('ready');
    render();
    followPermalink();
    return;
  }
  render();
};
feed.onerror = () => root.classList.toggle('offline', feed.readyState !== EventSource.OPEN);
feed.onopen = () => root.classList.remove('offline');
