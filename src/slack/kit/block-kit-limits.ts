// Slack's Block Kit limits, declared once: the renderers cut text to them and the Slack stand-in
// (playground/slack-stand-in/block-kit-checks.ts) refuses what exceeds them, as Slack does. Numbers
// from Slack's Block Kit reference (blocks, block elements, composition objects, views).
export const BLOCK_KIT = {
  message: { blocks: 50, text: 40_000 },
  view: {
    blocks: 100,
    title: 24,
    submit: 24,
    close: 24,
    privateMetadata: 3000,
    callbackId: 255,
  },
  /** block_id and action_id. */
  id: 255,
  section: { text: 3000, fields: 10, fieldText: 2000 },
  header: { text: 150 },
  context: { elements: 10, text: 3000 },
  actions: { elements: 25 },
  input: { label: 2000, hint: 2000 },
  markdown: { text: 12_000 },
  image: { url: 3000, altText: 2000, title: 2000 },
  table: { rows: 100, cells: 20 },
  contextActions: { elements: 5 },
  button: { text: 75, value: 2000, url: 3000 },
  placeholder: 150,
  option: { text: 75, value: 150, description: 75 },
  staticSelect: { options: 100 },
  checkboxes: { options: 10 },
  textInput: { value: 3000, maxLength: 3000 },
  confirm: { title: 100, text: 300, button: 30 },
  feedbackButton: { text: 75, value: 2000, accessibilityLabel: 75 },
} as const;
