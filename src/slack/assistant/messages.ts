import { catalog, translator } from '../kit/i18n.js';

const en = {
  greeting:
    'Hi {name}! Ask me your questions about work here: I answer from the knowledge base. Pick a suggestion below or type your question.',
  prompts_title: 'Try asking:',
  status: 'is looking this up…',
  loading_searching: 'Searching the knowledge base…',
  loading_reading: 'Reading the best match…',
  loading_writing: 'Putting the answer together…',
} as const;

export const messages = catalog(en, {
  greeting:
    '{name}，你好！工作上的问题都可以在这里问我，我会根据知识库回答。点击下面的推荐问题，或直接输入你的问题。',
  prompts_title: '试试问：',
  status: '正在查找答案…',
  loading_searching: '正在搜索知识库…',
  loading_reading: '正在阅读最相关的条目…',
  loading_writing: '正在整理答案…',
});

export const t = translator(messages);
