import { useWidget } from './context.js';
import { focusComposer } from './focus.js';

/** The site's starter questions, offered in an empty conversation: one click asks one. */
export function Starters() {
  const { model, config } = useWidget();
  if (config.starters.length === 0) return null;
  return (
    <div class="starters" role="group" aria-label={config.text.starters}>
      {config.starters.map((question) => (
        <button
          key={question}
          type="button"
          class="starter"
          onClick={(event) => {
            focusComposer(event.currentTarget);
            void model.send(question);
          }}
        >
          {question}
        </button>
      ))}
    </div>
  );
}
