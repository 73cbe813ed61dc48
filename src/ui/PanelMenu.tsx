import { toMarkdown } from '../state/transcript.js';
import { useConfirmation } from './confirmation.js';
import { Menu, type MenuItem } from './Menu.js';
import { useWidget } from './context.js';
import { transcriptLabels, useHandoffLink } from './HandoffLink.js';
import { MoreIcon } from './icons.js';

/** Characters a file name may not hold on some systems (the title is the site's, and plain text). */
const UNSAFE_NAME = /[\\/:*?"<>|]+/g;

/**
 * The header's menu: the visitor's conversations (see Conversations), the conversation copied or downloaded as
 * Markdown, a way to a person when the site gives one, and deleting the conversation for good (confirmed in the panel
 * first, see DeleteConfirm). A copy shows "Copied" beside the menu's button for a moment (see useConfirmation).
 */
export function PanelMenu() {
  const context = useWidget();
  const { model, config, copy, download, chatText } = context;
  const empty = model.messages.value.length === 0 || model.busy.value;
  const transcript = () => toMarkdown(model.messages.value, transcriptLabels(context));
  const handoff = useHandoffLink();
  const copied = useConfirmation();
  const items: MenuItem[] = [
    { label: chatText.conversations, onSelect: () => model.conversations.show(true) },
    {
      label: chatText.copyConversation,
      disabled: empty,
      onSelect: async () => {
        if (!(await copy(transcript()))) return;
        copied.show();
        model.say(config.text.copied);
      },
    },
    {
      label: chatText.downloadConversation,
      disabled: empty,
      onSelect: () => download(`${config.title.replace(UNSAFE_NAME, '-')}.md`, transcript()),
    },
  ];
  if (handoff)
    items.push({ label: chatText.talkToPerson, href: handoff.href, onSelect: () => model.handoff(handoff.via) });
  items.push({
    label: chatText.deleteConversation,
    disabled: empty,
    // The question is asked in the conversation, not over the list.
    onSelect: () => {
      model.conversations.show(false);
      model.removal.ask();
    },
  });
  return (
    <>
      {copied.shown && (
        <span class="head__note" aria-hidden="true">
          {config.text.copied}
        </span>
      )}
      <Menu label={chatText.menu} icon={<MoreIcon />} items={items} />
    </>
  );
}
