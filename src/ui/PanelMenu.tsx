import { toMarkdown } from '../state/transcript.js';
import { Menu, type MenuItem } from './Menu.js';
import { useWidget } from './context.js';
import { MoreIcon } from './icons.js';

/** Characters a file name may not hold on some systems (the title is the site's, and plain text). */
const UNSAFE_NAME = /[\\/:*?"<>|]+/g;

/**
 * The header's menu: the conversation copied or downloaded as Markdown, a way to a person when the site gives one,
 * and deleting the conversation for good (confirmed in the panel first, see DeleteConfirm).
 */
export function PanelMenu() {
  const { model, config, copy, download, formatTime, chatText } = useWidget();
  const { text } = config;
  const messages = model.messages.value;
  const empty = messages.length === 0 || model.busy.value;
  const transcript = () =>
    toMarkdown(model.messages.value, {
      title: config.title,
      you: text.you,
      assistant: text.assistant,
      sources: text.sources,
      formatTime,
    });
  const items: MenuItem[] = [
    {
      label: chatText.copyConversation,
      disabled: empty,
      onSelect: async () => {
        if (await copy(transcript())) model.say(text.copied);
      },
    },
    {
      label: chatText.downloadConversation,
      disabled: empty,
      onSelect: () => download(`${config.title.replace(UNSAFE_NAME, '-')}.md`, transcript()),
    },
    { label: chatText.deleteConversation, disabled: empty, onSelect: model.removal.ask },
  ];
  return <Menu label={chatText.menu} icon={<MoreIcon />} items={items} />;
}
