import { useWidget } from './context.js';
import { thenFocusComposer } from './focus.js';

/**
 * The site's starter questions, offered in an empty conversation: one click asks one. While sending waits (402,
 * 429, a message held for the connection) they wait too, with the notice as their reason, as Send does.
 */
export function Starters() {
  const { model, config } = useWidget();
  const limited = model.held.value;
  // A click sends at once: before the visitor's consent there is nothing to offer.
  if (config.starters.length === 0 || !model.consent.allows.value) return null;
  return (
    <div class="starters" role="group" aria-label={config.text.starters}>
      {config.starters.map((question) => (
        <button
          key={question}
          class="starter"
          disabled={limited}
          aria-describedby={limited ? 'askbox-limit' : undefined}
          onClick={thenFocusComposer(() => model.send(question))}
        >
          {question}
        </button>
      ))}
    </div>
  );
}
