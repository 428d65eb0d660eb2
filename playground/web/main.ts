// The playground page: a Slack-like client of the stand-in. It draws the workspace the server pushes
// (Server-Sent Events) and sends what the person does to the server, which signs it for the gateway.
import {
  API_PREFIX,
  type ElementValue,
  EVENTS_PATH,
  FAULT_KINDS,
  type FaultKind,
  type PlaygroundMessage,
  type PlaygroundView,
  type Snapshot,
  type StateValues,
} from '../protocol.js';
import { type BlockContext, renderBlocks, renderMrkdwn, renderText } from './blocks.js';
import { append, fill, h } from './dom.js';
import { renderHome, renderModal, type ViewContextBase, type ViewState } from './views.js';

type Place = { kind: 'conversation'; id: string } | { kind: 'home' };
type Source =
  | { kind: 'message' | 'ephemeral'; channel: string; ts: string }
  | { kind: 'view'; viewId: string };

const FAULT_LABELS: Record<FaultKind, string> = {
  none: 'Off',
  http500: 'HTTP 500 on every call',
  slow: 'Too slow (times out)',
  malformed: 'Malformed replies',
};

const state: {
  snapshot: Snapshot | undefined;
  me: string;
  place: Place;
  thread: { channel: string; ts: string } | undefined;
  /** The modal on screen, to keep what was typed when the app updates it. */
  modal: { id: string; hash: unknown; errors: string; state: ViewState } | undefined;
  highlight: string | undefined;
} = {
  snapshot: undefined,
  me: '',
  place: { kind: 'conversation', id: '' },
  thread: undefined,
  modal: undefined,
  highlight: undefined,
};

const root = document.getElementById('app') ?? document.body;

const personaSelect = h('select', {
  id: 'persona',
  'aria-label': 'You are',
  onchange: () => switchPersona(personaSelect.value),
});
const nav = h('nav', { class: 'nav', 'aria-label': 'Conversations' });
const faults = h('fieldset', { class: 'faults' }, h('legend', {}, 'Platform faults (simulator)'));
const title = h('div', { class: 'conversation-title' });
const purpose = h('div', { class: 'conversation-purpose' });
const messageList = h('div', { class: 'messages', role: 'log', 'aria-label': 'Messages' });
const home = h('div', { class: 'home-tab', hidden: true });
const composerInput = h('textarea', {
  class: 'composer-input',
  rows: '1',
  'aria-label': 'Message',
  placeholder: 'Message',
});
const composer = h(
  'form',
  { class: 'composer', onsubmit: (event) => submitComposer(event, composerInput, undefined) },
  composerInput,
  h('button', { type: 'submit', class: 'button button-primary composer-send' }, 'Send'),
);
const threadList = h('div', { class: 'messages thread-messages', role: 'log', 'aria-label': 'Thread' });
const threadInput = h('textarea', {
  class: 'composer-input',
  rows: '1',
  'aria-label': 'Reply',
  placeholder: 'Reply…',
});
const threadPane = h(
  'aside',
  { class: 'thread', hidden: true, 'aria-label': 'Thread' },
  h(
    'header',
    { class: 'pane-header' },
    h('span', {}, 'Thread'),
    h(
      'button',
      {
        type: 'button',
        class: 'pane-close',
        'aria-label': 'Close thread',
        onclick: () => openThread(undefined),
      },
      '×',
    ),
  ),
  threadList,
  h(
    'form',
    { class: 'composer', onsubmit: (event) => submitComposer(event, threadInput, state.thread?.ts) },
    threadInput,
    h('button', { type: 'submit', class: 'button button-primary composer-send' }, 'Reply'),
  ),
);
const callList = h('ol', { class: 'calls', reversed: true });
const activity = h(
  'aside',
  { class: 'activity', 'aria-label': 'Web API calls' },
  h('header', { class: 'pane-header' }, h('span', {}, 'What the gateway sends to Slack')),
  callList,
);
const modalLayer = h('div', { class: 'modal-host' });
const toasts = h('div', { class: 'toasts', 'aria-live': 'polite' });

for (const input of [composerInput, threadInput]) {
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
    h('div', { class: 'workspace-name' }, 'Acme (playground)'),
    h('label', { class: 'persona' }, h('span', {}, 'You are'), personaSelect),
    nav,
    faults,
  ),
  h(
    'main',
    { class: 'conversation' },
    h('header', { class: 'conversation-header' }, title, purpose),
    messageList,
    home,
    composer,
  ),
  threadPane,
  activity,
);
// Outside the three-column grid: layers over it.
document.body.append(modalLayer, toasts);

async function post(action: string, body: unknown): Promise<void> {
  try {
    const response = await fetch(`${API_PREFIX}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const outcome: unknown = await response.json();
    if (!response.ok) {
      const error =
        typeof outcome === 'object' && outcome !== null && 'error' in outcome
          ? String(outcome.error)
          : response.statusText;
      toast(error);
    }
  } catch (error) {
    toast(`The playground server did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
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
  if (wasDm) state.place = { kind: 'conversation', id: dmOf(userId) ?? '' };
  if (state.place.kind === 'home') void post('home', { userId });
  openThread(undefined);
}

function go(place: Place): void {
  state.place = place;
  state.thread = undefined;
  if (place.kind === 'home') void post('home', { userId: state.me });
  render();
}

function openThread(thread: { channel: string; ts: string } | undefined): void {
  state.thread = thread;
  render();
  if (thread) threadInput.focus();
}

function nameOf(id: string): string {
  const snapshot = state.snapshot;
  if (!snapshot) return id;
  if (id === snapshot.app.userId) return snapshot.app.name;
  if (id === 'USLACKBOT') return 'Slackbot';
  return (
    snapshot.personas.find((person) => person.id === id)?.name ??
    snapshot.conversations.find((conversation) => conversation.id === id)?.name ??
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
          plainText(dialog.deny) || 'Cancel',
        ),
        h(
          'button',
          {
            type: 'button',
            class: `button ${dialog.style === 'danger' ? 'button-danger' : 'button-primary'}`,
            onclick: () => done(true),
          },
          plainText(dialog.confirm) || 'Yes',
        ),
      ),
    ),
  );
  document.body.append(layer);
}

function time(ts: string): string {
  const date = new Date(Number(ts.split('.')[0]) * 1000);
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
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
        `Slack refused ${message.refusal.method}: `,
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
            title: 'Reply in thread',
            'aria-label': 'Reply in thread',
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
          h('summary', { 'aria-label': 'More actions', title: 'More actions' }, '⋮'),
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
        message.edited ? h('span', { class: 'edited' }, '(edited)') : undefined,
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
          file.preview ? h('pre', { class: 'file-preview' }, file.preview) : undefined,
        ),
      ),
      ephemeral ? h('div', { class: 'ephemeral-note' }, '👁 Only visible to you') : undefined,
      options.replies > 0 && !options.inThread
        ? h(
            'button',
            {
              type: 'button',
              class: 'replies',
              onclick: () => openThread({ channel: message.channel, ts: message.ts }),
            },
            `${options.replies} ${options.replies === 1 ? 'reply' : 'replies'}`,
          )
        : undefined,
    ),
    toolbar,
  );
  return element;
}

function keepScrolledToEnd(list: HTMLElement, draw: () => void): void {
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  draw();
  if (atEnd) list.scrollTop = list.scrollHeight;
}

function render(): void {
  const snapshot = state.snapshot;
  if (!snapshot) return;
  renderSidebar(snapshot);
  const place = state.place;
  const conversation =
    place.kind === 'conversation' ? snapshot.conversations.find((c) => c.id === place.id) : undefined;
  messageList.hidden = place.kind === 'home';
  composer.hidden = place.kind === 'home';
  home.hidden = place.kind !== 'home';
  if (place.kind === 'home') {
    fill(title, `🏠 ${snapshot.app.name} — Home`);
    fill(purpose, 'The app’s Home tab, as published for you with views.publish');
    fill(
      home,
      renderHome(
        snapshot.homes[state.me],
        baseContext({ kind: 'view', viewId: snapshot.homes[state.me]?.id ?? 'home' }),
      ),
    );
  } else if (conversation) {
    fill(title, conversation.kind === 'channel' ? `# ${conversation.name}` : `🤖 ${snapshot.app.name}`);
    fill(purpose, conversation.purpose);
    composerInput.placeholder =
      conversation.kind === 'channel'
        ? `Message #${conversation.name} — mention @Helpdesk to ask, or type ${snapshot.slashCommand} help`
        : `Message ${snapshot.app.name} — or type ${snapshot.slashCommand} help`;
    const inConversation = snapshot.messages.filter((m) => m.channel === conversation.id && visible(m));
    const replies = (ts: string) => inConversation.filter((m) => m.threadTs === ts && m.ts !== ts).length;
    keepScrolledToEnd(messageList, () =>
      fill(
        messageList,
        ...inConversation
          .filter((m) => m.threadTs === undefined || m.threadTs === m.ts)
          .map((m) => renderMessage(m, { replies: replies(m.ts), inThread: false })),
        inConversation.length === 0 ? h('div', { class: 'empty' }, 'No messages yet. Say hello!') : undefined,
      ),
    );
  }
  renderThread(snapshot);
  renderCalls(snapshot);
  renderModalLayer(snapshot);
}

function renderSidebar(snapshot: Snapshot): void {
  if (personaSelect.options.length !== snapshot.personas.length) {
    fill(personaSelect, ...snapshot.personas.map((person) => h('option', { value: person.id }, person.name)));
  }
  personaSelect.value = state.me;
  const item = (label: string, place: Place, current: boolean) =>
    h(
      'button',
      {
        type: 'button',
        class: `nav-item${current ? ' current' : ''}`,
        'aria-current': current ? 'page' : undefined,
        onclick: () => go(place),
      },
      label,
    );
  const here = currentConversation();
  const dm = dmOf(state.me);
  fill(
    nav,
    item('🏠 Home', { kind: 'home' }, state.place.kind === 'home'),
    h('div', { class: 'nav-heading' }, 'Channels'),
    ...snapshot.conversations
      .filter((c) => c.kind === 'channel')
      .map((c) => item(`# ${c.name}`, { kind: 'conversation', id: c.id }, here === c.id)),
    h('div', { class: 'nav-heading' }, 'Direct messages'),
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
          ` ${FAULT_LABELS[kind]}`,
        ),
      ),
    );
  }
  for (const input of faults.querySelectorAll('input')) input.checked = input.value === snapshot.fault;
  faults.dataset.active = snapshot.fault;
}

function renderThread(snapshot: Snapshot): void {
  const thread = state.thread;
  const parent = thread
    ? snapshot.messages.find((m) => m.channel === thread.channel && m.ts === thread.ts)
    : undefined;
  threadPane.hidden = parent === undefined;
  activity.hidden = parent !== undefined;
  if (!parent) return;
  const replies = snapshot.messages.filter(
    (m) => m.channel === parent.channel && m.threadTs === parent.ts && m.ts !== parent.ts && visible(m),
  );
  keepScrolledToEnd(threadList, () =>
    fill(
      threadList,
      renderMessage(parent, { replies: 0, inThread: true }),
      h('div', { class: 'thread-count' }, `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`),
      ...replies.map((m) => renderMessage(m, { replies: 0, inThread: true })),
    ),
  );
}

function renderCalls(snapshot: Snapshot): void {
  fill(
    callList,
    ...[...snapshot.calls]
      .reverse()
      .map((call) =>
        h(
          'li',
          { class: `call${call.ok ? '' : ' call-failed'}` },
          h('span', { class: 'call-time' }, new Date(call.at).toLocaleTimeString()),
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
    {
      submit: (view, values) => void post('submit', { userId: state.me, viewId: view.id, values }),
      close: (view) => void post('close', { userId: state.me, viewId: view.id }),
    },
  );
  state.modal = { id: top.id, hash: top.view.hash, errors, state: viewState };
  fill(modalLayer, element);
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
  render();
  document.querySelector('.message.highlight')?.scrollIntoView({ block: 'center' });
}

window.addEventListener('hashchange', followPermalink);

const feed = new EventSource(EVENTS_PATH);
feed.onmessage = (event: MessageEvent<string>) => {
  const first = state.snapshot === undefined;
  state.snapshot = JSON.parse(event.data) as Snapshot;
  if (first) {
    const wanted = new URLSearchParams(window.location.search).get('as');
    const me = state.snapshot.personas.find((person) => person.id === wanted) ?? state.snapshot.personas[0];
    state.me = me?.id ?? '';
    state.place = { kind: 'conversation', id: dmOf(state.me) ?? '' };
    root.classList.add('ready');
    render();
    followPermalink();
    return;
  }
  render();
};
feed.onerror = () => root.classList.toggle('offline', feed.readyState !== EventSource.OPEN);
feed.onopen = () => root.classList.remove('offline');
